pub mod histogram {
    use super::*;
    pub fn inputs(n: usize, k: usize) -> (Vec<u32>, usize, Vec<u64>) {
        ((0..n as u32).map(|i| i % k as u32).collect(), k, vec![0; k])
    }
    pub fn serial(data: &[u32], bins: usize, out: &mut [u64]) {
        for &d in data {
            out[d as usize % bins] += 1;
        }
    }
    pub fn parallel(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) {
        for chunk in data.chunks(block_size) {
            serial(chunk, bins, out);
        }
    }
    pub fn gpu(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) {
        parallel(data, bins, out, block_size)
    }
    /// The variants of this kernel, in declaration order.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Variant {
        ///The `serial` variant.
        Serial,
        ///The `parallel` variant.
        Parallel,
        ///The `gpu` variant.
        Gpu,
    }
    impl Variant {
        /// Every variant, in declaration order.
        pub const ALL: [Variant; 3] = [Variant::Serial, Variant::Parallel, Variant::Gpu];
        /// The variant's name: its function's name.
        pub const fn name(self) -> &'static str {
            match self {
                Variant::Serial => "serial",
                Variant::Parallel => "parallel",
                Variant::Gpu => "gpu",
            }
        }
        /// The variant's index in declaration order, as `Choice::variant_index` and
        /// the kernel's descriptor count it.
        pub const fn index(self) -> usize {
            self as usize
        }
        /// The kernel's descriptor: name, axes, variants and identity, as
        /// registered for `ktc retune` and the sweep.
        pub const fn kernel() -> &'static ::ktc::KernelInfo {
            &__KTC_KERNEL
        }
        /// The block sizes the sweep measures the variant with; empty when it takes none.
        pub const fn block_sizes(self) -> &'static [usize] {
            match self {
                Variant::Serial => &[],
                Variant::Parallel => &[4096, 65536],
                Variant::Gpu => &[128, 256],
            }
        }
    }
    #[automatically_derived]
    impl ::core::str::FromStr for Variant {
        type Err = ::std::string::String;
        fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
            match s {
                "serial" => ::core::result::Result::Ok(Variant::Serial),
                "parallel" => ::core::result::Result::Ok(Variant::Parallel),
                "gpu" => ::core::result::Result::Ok(Variant::Gpu),
                _ => {
                    ::core::result::Result::Err(
                        ::std::format!(
                            "unknown variant `{}` of kernel `histogram`; expected one of `serial`, `parallel`, `gpu`",
                            s
                        ),
                    )
                }
            }
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for Variant {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            f.write_str(self.name())
        }
    }
    static __KTC_DISPATCH: ::ktc::__private::OnceLock<::ktc::__private::Dispatch> = ::ktc::__private::OnceLock::new();
    /// The decision table this kernel dispatches with, loaded on first use.
    #[doc(hidden)]
    #[inline]
    pub fn __ktc_dispatch() -> &'static ::ktc::__private::Dispatch {
        __KTC_DISPATCH.get_or_init(|| ::ktc::__private::Dispatch::load(&__KTC_KERNEL))
    }
    /// Runs the variant (and block size) measured fastest on this host for these
    /// arguments; without a usable stored tuning, the fallback variant.
    #[inline]
    pub fn call(data: &[u32], bins: usize, out: &mut [u64]) {
        match __KTC_DISPATCH
            .get()
            .and_then(|d| {
                d
                    .choose_inline(
                        &[
                            ::ktc::__private::AxisValue::from(data.len()),
                            ::ktc::__private::AxisValue::from(bins),
                        ],
                    )
            })
        {
            ::core::option::Option::Some((__ktc_v, __ktc_b)) => {
                __ktc_run(__ktc_v, __ktc_b, data, bins, out)
            }
            ::core::option::Option::None => __ktc_call_general(data, bins, out),
        }
    }
    /// [`call`] for every table, query and device: loads the table on first use.
    #[inline(never)]
    fn __ktc_call_general(data: &[u32], bins: usize, out: &mut [u64]) {
        let (__ktc_v, __ktc_b) = __ktc_dispatch()
            .choose(
                &[
                    ::ktc::__private::AxisValue::from(data.len()),
                    ::ktc::__private::AxisValue::from(bins),
                ],
            );
        __ktc_run(__ktc_v, __ktc_b, data, bins, out)
    }
    /// Runs variant `__ktc_v` as the table chose it.
    #[inline(always)]
    fn __ktc_run(
        __ktc_v: usize,
        __ktc_b: usize,
        data: &[u32],
        bins: usize,
        out: &mut [u64],
    ) {
        match __ktc_v {
            1 => parallel(data, bins, out, __ktc_b),
            2 => gpu(data, bins, out, __ktc_b),
            _ => serial(data, bins, out),
        }
    }
    /// Runs `variant`, bypassing the tuning. `block_size: None` takes the variant's
    /// first declared block size; variants without block sizes ignore it.
    pub fn call_with(
        variant: Variant,
        block_size: ::core::option::Option<usize>,
        data: &[u32],
        bins: usize,
        out: &mut [u64],
    ) {
        match variant {
            Variant::Serial => serial(data, bins, out),
            Variant::Parallel => parallel(data, bins, out, block_size.unwrap_or(4096)),
            Variant::Gpu => gpu(data, bins, out, block_size.unwrap_or(128)),
        }
    }
    /// Which variant and block size [`call`] takes for these arguments, and why.
    #[allow(unused_variables)]
    pub fn explain(data: &[u32], bins: usize, out: &mut [u64]) -> ::ktc::Choice {
        __ktc_dispatch()
            .explain(
                &[
                    ::ktc::__private::AxisValue::from(data.len()),
                    ::ktc::__private::AxisValue::from(bins),
                ],
            )
    }
    const _: &[&[u8]] = &[
        ::core::include_bytes!(
            ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")
        ),
    ];
    /// This kernel's registration in the kernel registry.
    #[doc(hidden)]
    #[::ktc::__private::linkme::distributed_slice(::ktc::__private::KERNELS)]
    #[linkme(crate = ::ktc::__private::linkme)]
    pub static __KTC_KERNEL: ::ktc::__private::KernelInfo = ::ktc::__private::KernelInfo {
        name: "histogram",
        module_path: ::core::module_path!(),
        identity: ::ktc::__private::KernelIdentity {
            crate_name: ::core::env!("CARGO_PKG_NAME"),
            crate_version: ::core::env!("CARGO_PKG_VERSION"),
            source_hash: "ff64f2c87e9093f6",
            sources: &[("src/lib.rs", "0123456789abcdef")],
            dependencies: &[("rayon", "1.12.0")],
            features: &[
                ("default", ::core::cfg!(feature = "default")),
                ("simd", ::core::cfg!(feature = "simd")),
            ],
            build: ::ktc::__private::build_info!(),
        },
        axes: &[
            ::ktc::__private::AxisInfo {
                name: "n",
                kind: ::ktc::__private::AxisKind::Numeric,
                grid: &[
                    ::ktc::__private::GridValue::Int(1000),
                    ::ktc::__private::GridValue::Int(100000),
                ],
            },
            ::ktc::__private::AxisInfo {
                name: "k",
                kind: ::ktc::__private::AxisKind::Numeric,
                grid: &[
                    ::ktc::__private::GridValue::Int(4),
                    ::ktc::__private::GridValue::Int(64),
                ],
            },
        ],
        variants: &[
            ::ktc::__private::VariantInfo {
                name: "serial",
                block_sizes: &[],
                requires: &[],
                reference: true,
                default: false,
            },
            ::ktc::__private::VariantInfo {
                name: "parallel",
                block_sizes: &[4096, 65536],
                requires: &[],
                reference: false,
                default: false,
            },
            ::ktc::__private::VariantInfo {
                name: "gpu",
                block_sizes: &[128, 256],
                requires: &[::ktc::__private::Capability::Cuda],
                reference: false,
                default: true,
            },
        ],
        sweep: __ktc_sweep,
        calls: ::ktc::__private::CallPattern::InALoop,
    };
    /// Builds, runs and checks this kernel's variants for the sweep.
    #[doc(hidden)]
    struct __KtcHarness;
    #[automatically_derived]
    impl ::ktc::__private::Harness for __KtcHarness {
        type Inputs = (Vec<u32>, usize, Vec<u64>);
        type Ret = ();
        type Output = (Vec<u64>, ());
        fn build(
            &self,
            __ktc_point: &[::ktc::__private::GridValue],
        ) -> ::core::result::Result<Self::Inputs, ::ktc::__private::InputsError> {
            if __ktc_point.len() != 2 {
                return ::core::result::Result::Err(::ktc::__private::InputsError::Arity {
                    expected: 2,
                    found: __ktc_point.len(),
                });
            }
            ::core::result::Result::Ok(
                inputs(
                    <usize as ::ktc::__private::FromGridValue>::from_grid_value(
                            __ktc_point[0],
                        )
                        .map_err(|source| ::ktc::__private::InputsError::Axis {
                            axis: "n",
                            source,
                        })?,
                    <usize as ::ktc::__private::FromGridValue>::from_grid_value(
                            __ktc_point[1],
                        )
                        .map_err(|source| ::ktc::__private::InputsError::Axis {
                            axis: "k",
                            source,
                        })?,
                ),
            )
        }
        fn run(
            &self,
            __ktc_variant: usize,
            __ktc_block: ::core::option::Option<usize>,
            __ktc_inputs: &mut Self::Inputs,
        ) -> Self::Ret {
            match __ktc_variant {
                1 => {
                    parallel(
                        ::core::borrow::Borrow::<[u32]>::borrow(&__ktc_inputs.0),
                        ::core::clone::Clone::clone(&__ktc_inputs.1),
                        ::core::borrow::BorrowMut::<
                            [u64],
                        >::borrow_mut(&mut __ktc_inputs.2),
                        __ktc_block.unwrap_or(4096),
                    )
                }
                2 => {
                    gpu(
                        ::core::borrow::Borrow::<[u32]>::borrow(&__ktc_inputs.0),
                        ::core::clone::Clone::clone(&__ktc_inputs.1),
                        ::core::borrow::BorrowMut::<
                            [u64],
                        >::borrow_mut(&mut __ktc_inputs.2),
                        __ktc_block.unwrap_or(128),
                    )
                }
                _ => {
                    serial(
                        ::core::borrow::Borrow::<[u32]>::borrow(&__ktc_inputs.0),
                        ::core::clone::Clone::clone(&__ktc_inputs.1),
                        ::core::borrow::BorrowMut::<
                            [u64],
                        >::borrow_mut(&mut __ktc_inputs.2),
                    )
                }
            }
        }
        fn output(
            &self,
            __ktc_inputs: Self::Inputs,
            __ktc_ret: Self::Ret,
        ) -> Self::Output {
            (__ktc_inputs.2, __ktc_ret)
        }
        fn verify(
            &self,
            __ktc_reference: &Self::Output,
            __ktc_candidate: &Self::Output,
        ) -> ::core::result::Result<(), ::std::string::String> {
            if __ktc_reference == __ktc_candidate {
                ::core::result::Result::Ok(())
            } else {
                ::core::result::Result::Err(
                    ::std::string::String::from("outputs differ from the reference"),
                )
            }
        }
    }
    /// Sweeps this kernel and writes a tuning entry.
    #[doc(hidden)]
    fn __ktc_sweep(
        options: &::ktc::__private::SweepOptions,
    ) -> ::core::result::Result<::ktc::__private::SweepReport, ::ktc::__private::Error> {
        ::ktc::__private::sweep(&__KTC_KERNEL, &__KtcHarness, options)
    }
    /// Tunes this kernel on the host running `cargo test` (in an optimised build).
    #[cfg(test)]
    #[test]
    fn ktc_sweep() {
        ::ktc::__private::tune_in_test(&__KTC_KERNEL, ::ktc::__private::test_build!())
    }
}
