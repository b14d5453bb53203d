//! Residency: whether a kernel's data lives in host memory or on a device, so it can
//! be a categorical axis (`axes(loc = ktc::location(data))`).

/// Where a value's data lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// Host (CPU) memory.
    Host,
    /// Device (GPU) memory.
    Device,
}

impl Location {
    /// Both locations, in label order.
    pub const ALL: [Location; 2] = [Location::Host, Location::Device];

    /// The label used in decision tables: `host` or `device`.
    pub const fn label(self) -> &'static str {
        match self {
            Location::Host => "host",
            Location::Device => "device",
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Values whose residency is known.
pub trait Locate {
    /// Where this value's data lives.
    fn location(&self) -> Location;
}

/// Where `x`'s data lives; pass it as a categorical axis.
///
/// ```
/// assert_eq!(ktc::location(&vec![1u8, 2, 3]), ktc::Location::Host);
/// assert_eq!(ktc::location(&[0.5f32; 4][..]), ktc::Location::Host);
/// ```
#[inline]
pub fn location<T: Locate + ?Sized>(x: &T) -> Location {
    x.location()
}

impl<T> Locate for [T] {
    #[inline]
    fn location(&self) -> Location {
        Location::Host
    }
}

impl<T, const N: usize> Locate for [T; N] {
    #[inline]
    fn location(&self) -> Location {
        Location::Host
    }
}

impl<T> Locate for Vec<T> {
    #[inline]
    fn location(&self) -> Location {
        Location::Host
    }
}

impl<T: Locate + ?Sized> Locate for &T {
    #[inline]
    fn location(&self) -> Location {
        (**self).location()
    }
}

impl<T: Locate + ?Sized> Locate for &mut T {
    #[inline]
    fn location(&self) -> Location {
        (**self).location()
    }
}

#[cfg(feature = "cuda")]
mod device {
    use super::{Locate, Location};
    use cudarc::driver::{CudaSlice, CudaView, CudaViewMut};

    impl<T> Locate for CudaSlice<T> {
        #[inline]
        fn location(&self) -> Location {
            Location::Device
        }
    }

    impl<T> Locate for CudaView<'_, T> {
        #[inline]
        fn location(&self) -> Location {
            Location::Device
        }
    }

    impl<T> Locate for CudaViewMut<'_, T> {
        #[inline]
        fn location(&self) -> Location {
            Location::Device
        }
    }
}
