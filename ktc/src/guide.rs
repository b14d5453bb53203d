//! # `#[tunable]`, one option at a time
//!
//! Each example below compiles and runs as a doctest. A kernel module holds one
//! `#[inputs]` function (it builds one sweep point's arguments as a tuple of owned
//! values, one per variant parameter) and its variants, which share one signature
//! apart from an optional trailing `block_size: usize`.
//!
//! ## `axes` and `sweep`: numeric axes
//!
//! Each axis is an expression over the variants' parameters; an integer grid makes it
//! numeric. `call` dispatches, `call_with` forces, `explain` says why.
//!
//! ```
//! #[ktc::tunable(axes(n = data.len()), sweep(n = [100, 10_000]))]
//! pub mod total {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (Vec<u32>,) {
//!         (vec![1; n],)
//!     }
//!     #[variant(reference)]
//!     pub fn serial(data: &[u32]) -> u64 {
//!         data.iter().map(|&x| u64::from(x)).sum()
//!     }
//!     #[variant(block_size = [64, 4096])]
//!     pub fn blocked(data: &[u32], block_size: usize) -> u64 {
//!         data.chunks(block_size).map(serial).sum()
//!     }
//! }
//!
//! let data = vec![2u32; 1000];
//! assert_eq!(total::call(&data), 2000);
//! assert_eq!(total::call_with(total::Variant::Blocked, Some(64), &data), 2000);
//! assert_eq!("blocked".parse::<total::Variant>(), Ok(total::Variant::Blocked));
//! println!("{}", total::explain(&data));
//! ```
//!
//! ## A categorical axis: residency
//!
//! A label grid makes the axis categorical; `ktc::location` tells host from device data.
//!
//! ```
//! #[ktc::tunable(axes(n = x.len(), loc = ktc::location(x)), sweep(n = [1_000], loc = [host]))]
//! pub mod scale {
//!     #[inputs]
//!     pub fn inputs(n: usize, loc: ktc::Location) -> (Vec<f32>, Vec<f32>) {
//!         assert_eq!(loc, ktc::Location::Host);
//!         (vec![1.0; n], vec![0.0; n])
//!     }
//!     #[variant(reference)]
//!     pub fn serial(x: &[f32], out: &mut [f32]) {
//!         out.iter_mut().zip(x).for_each(|(o, v)| *o = 2.0 * v);
//!     }
//! }
//!
//! let (x, mut out) = scale::inputs(8, ktc::Location::Host);
//! scale::call(&x, &mut out);
//! assert_eq!(out, vec![2.0; 8]);
//! ```
//!
//! ## `name`: the kernel's name in the store
//!
//! ```
//! #[ktc::tunable(name = "joint_hist_batched", axes(n = n), sweep(n = [1, 2]))]
//! pub mod jh {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (usize,) {
//!         (n,)
//!     }
//!     #[variant(reference)]
//!     pub fn only(n: usize) -> usize {
//!         n
//!     }
//! }
//! assert_eq!(jh::Variant::kernel().name, "joint_hist_batched");
//! ```
//!
//! ## `tolerance`: floating-point outputs
//!
//! Outputs are compared with the reference's through [`sweep::Approx`](crate::sweep::Approx).
//!
//! ```
//! #[ktc::tunable(axes(n = x.len()), sweep(n = [1_000]), tolerance = 1e-5)]
//! pub mod dot {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (Vec<f32>,) {
//!         ((0..n).map(|i| i as f32 * 1e-3).collect(),)
//!     }
//!     #[variant(reference)]
//!     pub fn serial(x: &[f32]) -> f32 {
//!         x.iter().map(|v| v * v).sum()
//!     }
//!     #[variant]
//!     pub fn pairwise(x: &[f32]) -> f32 {
//!         if x.len() <= 8 { serial(x) } else { pairwise(&x[..x.len() / 2]) + pairwise(&x[x.len() / 2..]) }
//!     }
//! }
//! let (x,) = dot::inputs(100);
//! assert!((dot::call(&x) - dot::serial(&x)).abs() < 1e-3);
//! ```
//!
//! ## `#[verify]`: a comparison of your own
//!
//! It receives the reference's and a candidate's outputs (the `&mut` arguments after
//! the run, then the return value) and says where they differ.
//!
//! ```
//! #[ktc::tunable(axes(n = v.len()), sweep(n = [100]))]
//! pub mod sort {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (Vec<u32>,) {
//!         ((0..n as u32).rev().collect(),)
//!     }
//!     #[variant(reference)]
//!     pub fn stable(v: &mut [u32]) {
//!         v.sort();
//!     }
//!     #[variant]
//!     pub fn unstable(v: &mut [u32]) {
//!         v.sort_unstable();
//!     }
//!     #[verify]
//!     fn same(reference: &(Vec<u32>, ()), candidate: &(Vec<u32>, ())) -> Result<(), String> {
//!         if reference.0 == candidate.0 { Ok(()) } else { Err("orders differ".into()) }
//!     }
//! }
//! let mut v = vec![3, 1, 2];
//! sort::call(&mut v);
//! assert_eq!(v, [1, 2, 3]);
//! ```
//!
//! ## `requires` and `default`
//!
//! A variant that needs CUDA is never swept nor dispatched where CUDA is absent; the
//! declared `default` is the fallback instead of the reference when it can run.
//!
//! ```
//! #[ktc::tunable(axes(n = x.len()), sweep(n = [1_000]))]
//! pub mod fill {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (Vec<u8>,) {
//!         (vec![0; n],)
//!     }
//!     #[variant(reference)]
//!     pub fn serial(x: &mut [u8]) {
//!         x.iter_mut().for_each(|v| *v = 7);
//!     }
//!     #[variant(default)]
//!     pub fn bulk(x: &mut [u8]) {
//!         x.fill(7);
//!     }
//!     #[variant(requires = cuda, block_size = [256])]
//!     pub fn gpu(x: &mut [u8], block_size: usize) {
//!         x.chunks_mut(block_size).for_each(|c| c.fill(7));
//!     }
//! }
//! let mut x = vec![0u8; 10];
//! fill::call(&mut x);
//! assert_eq!(x, [7; 10]);
//! if ktc::capability_available(ktc::Capability::Cuda).is_err() {
//!     assert_ne!(fill::explain(&mut x).variant, "gpu");
//! }
//! ```
//!
//! ## `crate`: where the runtime lives
//!
//! Generated code names the runtime as `::ktc`; a crate that renames or re-exports it
//! says where it is.
//!
//! ```
//! extern crate ktc as my_ktc;
//!
//! #[my_ktc::tunable(crate = ::my_ktc, axes(n = n), sweep(n = [1]))]
//! pub mod renamed {
//!     #[inputs]
//!     pub fn inputs(n: usize) -> (usize,) {
//!         (n,)
//!     }
//!     #[variant(reference)]
//!     pub fn id(n: usize) -> usize {
//!         n
//!     }
//! }
//!
//! fn main() {
//!     assert_eq!(renamed::call(5), 5);
//! }
//! ```
