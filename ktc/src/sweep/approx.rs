//! Comparison within a tolerance, for kernels with floating-point outputs
//! (`#[tunable(tolerance = 1e-6)]`).

/// Equality within a relative tolerance for floats, exact for everything else.
pub trait Approx {
    /// Ok when `self` and `other` agree within `tolerance` (relative, with an absolute
    /// floor of `tolerance` near zero); else where they first differ.
    fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String>;
}

macro_rules! approx_float {
    ($($t:ty),*) => {$(
        impl Approx for $t {
            fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
                let (a, b) = (*self as f64, *other as f64);
                let scale = a.abs().max(b.abs()).max(1.0);
                if a == b || (a - b).abs() <= tolerance * scale || (a.is_nan() && b.is_nan()) {
                    Ok(())
                } else {
                    Err(format!("{a} vs {b}"))
                }
            }
        }
    )*};
}
approx_float!(f32, f64);

macro_rules! approx_exact {
    ($($t:ty),*) => {$(
        impl Approx for $t {
            fn approx_eq(&self, other: &Self, _tolerance: f64) -> Result<(), String> {
                if self == other { Ok(()) } else { Err(format!("{self:?} vs {other:?}")) }
            }
        }
    )*};
}
approx_exact!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, bool, char, (), String);

impl<T: Approx> Approx for [T] {
    fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
        if self.len() != other.len() {
            return Err(format!("length {} vs {}", self.len(), other.len()));
        }
        for (i, (a, b)) in self.iter().zip(other).enumerate() {
            a.approx_eq(b, tolerance).map_err(|e| format!("[{i}]: {e}"))?;
        }
        Ok(())
    }
}

impl<T: Approx> Approx for Vec<T> {
    fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
        self.as_slice().approx_eq(other.as_slice(), tolerance)
    }
}

impl<T: Approx, const N: usize> Approx for [T; N] {
    fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
        self.as_slice().approx_eq(other.as_slice(), tolerance)
    }
}

impl<T: Approx> Approx for Option<T> {
    fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
        match (self, other) {
            (Some(a), Some(b)) => a.approx_eq(b, tolerance),
            (None, None) => Ok(()),
            _ => Err(format!("{} vs {}", some_or_none(self), some_or_none(other))),
        }
    }
}

fn some_or_none<T>(x: &Option<T>) -> &'static str {
    if x.is_some() { "Some" } else { "None" }
}

macro_rules! approx_tuple {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: Approx),+> Approx for ($($name,)+) {
            fn approx_eq(&self, other: &Self, tolerance: f64) -> Result<(), String> {
                $(self.$idx.approx_eq(&other.$idx, tolerance).map_err(|e| format!("output {}: {e}", $idx))?;)+
                Ok(())
            }
        }
    };
}
approx_tuple!(A 0);
approx_tuple!(A 0, B 1);
approx_tuple!(A 0, B 1, C 2);
approx_tuple!(A 0, B 1, C 2, D 3);
approx_tuple!(A 0, B 1, C 2, D 3, E 4);
approx_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
