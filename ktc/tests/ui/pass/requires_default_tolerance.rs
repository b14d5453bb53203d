//! A CUDA-only default variant (skipped where CUDA is absent), a float kernel compared
//! within a tolerance, a kernel name and the `crate` override.

#[ktc::tunable(
    axes(n = x.len()),
    sweep(n = [8, 64]),
    tolerance = 1e-9,
    name = "dot_product",
    crate = ::ktc,
)]
pub mod dot {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<f64>, Vec<f64>) {
        ((0..n).map(|i| i as f64 * 0.1).collect(), vec![0.3; n])
    }

    #[variant(reference)]
    pub fn serial(x: &[f64], y: &[f64]) -> f64 {
        x.iter().zip(y).map(|(a, b)| a * b).sum()
    }

    #[variant(block_size = [2, 4])]
    pub fn pairwise(x: &[f64], y: &[f64], block_size: usize) -> f64 {
        x.chunks(block_size).zip(y.chunks(block_size)).map(|(a, b)| serial(a, b)).sum()
    }

    #[variant(requires = cuda, default)]
    pub fn gpu(x: &[f64], y: &[f64]) -> f64 {
        serial(x, y)
    }
}

fn main() {
    let x = vec![1.0; 10];
    let y = vec![2.0; 10];
    assert_eq!(dot::call(&x, &y), 20.0);
    assert_eq!(dot::call_with(dot::Variant::Pairwise, None, &x, &y), 20.0);
    let choice = dot::explain(&x, &y);
    let expected = if ktc::capability_available(ktc::Capability::Cuda).is_ok() { "gpu" } else { "serial" };
    assert_eq!(choice.variant, expected, "{choice}");
    assert_eq!(dot::Variant::ALL.len(), 3);
    assert_eq!("serial".parse::<dot::Variant>(), Ok(dot::Variant::Serial));
    let tuner = dot::Variant::kernel();
    assert_eq!(tuner.name, "dot_product");
    assert_eq!(tuner.variants[2].requires, &[ktc::Capability::Cuda]);
    assert!(tuner.variants[2].default && tuner.variants[0].reference);
}
