//! A categorical axis (residency) beside a numeric one.

use ktc::Location;

#[ktc::tunable(
    axes(n = x.len(), loc = ktc::location(x)),
    sweep(n = [16, 256], loc = [host]),
)]
pub mod scale {
    use super::Location;

    #[inputs]
    pub fn inputs(n: usize, loc: Location) -> (Vec<f32>, f32, Vec<f32>) {
        assert_eq!(loc, Location::Host);
        (vec![1.0; n], 2.0, vec![0.0; n])
    }

    #[variant(reference)]
    pub fn serial(x: &[f32], a: f32, out: &mut [f32]) {
        for (o, v) in out.iter_mut().zip(x) {
            *o = a * v;
        }
    }

    #[variant(block_size = [8, 32])]
    pub fn blocked(x: &[f32], a: f32, out: &mut [f32], block_size: usize) {
        for (o, x) in out.chunks_mut(block_size).zip(x.chunks(block_size)) {
            serial(x, a, o);
        }
    }
}

fn main() {
    let x = vec![1.0f32; 40];
    let mut out = vec![0.0f32; 40];
    scale::call(&x, 3.0, &mut out);
    assert!(out.iter().all(|&v| v == 3.0));
    scale::call_with(scale::Variant::Blocked, Some(16), &x, 4.0, &mut out);
    assert!(out.iter().all(|&v| v == 4.0));
    println!("{}", scale::explain(&x, 3.0, &mut out));
    assert_eq!(scale::Variant::ALL.len(), 2);
    assert_eq!("serial".parse::<scale::Variant>(), Ok(scale::Variant::Serial));
    let axes = scale::Variant::kernel().axes;
    assert_eq!(axes[1].kind, ktc::AxisKind::Categorical);
    assert_eq!(axes[1].grid, &[ktc::GridValue::Label("host")]);
}
