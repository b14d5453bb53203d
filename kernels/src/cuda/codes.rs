//! Codes in device memory, and the copies between host and device.

use std::sync::Arc;

use super::gpu::{Gpu, gpu, gpu_on};
use crate::column::{DeviceCodes, HostCodes, Storage};
use crate::{Codes, Error};

impl DeviceCodes {
    /// The device holding the codes.
    pub(crate) fn ordinal(&self) -> usize {
        match self {
            DeviceCodes::U8(d) => d.ordinal(),
            DeviceCodes::U16(d) => d.ordinal(),
        }
    }
}

/// The GPU to run on for these inputs: the device holding the device-resident ones
/// (all on one device, or an error), else this thread's `ktc::cuda_device()`.
pub(crate) fn gpu_for(inputs: &[&Codes]) -> Result<&'static Gpu, Error> {
    let mut ordinals = inputs.iter().filter_map(|c| match &c.storage {
        Storage::Device(d) => Some(d.ordinal()),
        _ => None,
    });
    match ordinals.next() {
        None => gpu(),
        Some(first) => match ordinals.find(|&o| o != first) {
            None => gpu_on(first),
            Some(other) => Err(Error::Cuda(format!("inputs on two CUDA devices ({first} and {other})"))),
        },
    }
}

fn driver(what: &str) -> impl Fn(cudarc::driver::DriverError) -> Error + '_ {
    move |e| Error::Cuda(format!("{what}: {e}"))
}

/// Uploads host codes (already validated, so the device copy is valid too). Empty
/// codes upload one zero code instead: the driver refuses zero-byte allocations, and
/// the [`Codes`] shape, not the buffer's length, says how many codes there are.
pub(crate) fn upload(gpu: &Gpu, host: HostCodes<'_>) -> Result<DeviceCodes, Error> {
    let stream = &gpu.stream;
    let err = driver("copying codes to the device");
    Ok(match host {
        HostCodes::U8(d) => DeviceCodes::U8(stream.clone_htod(non_empty(d, &[0])).map_err(err)?),
        HostCodes::U16(d) => DeviceCodes::U16(stream.clone_htod(non_empty(d, &[0])).map_err(err)?),
    })
}

/// `d`, or one zero code (a promoted `'static` constant) when it is empty.
fn non_empty<'a, T>(d: &'a [T], zero: &'static [T; 1]) -> &'a [T] {
    if d.is_empty() { zero } else { d }
}

/// Copies the first `len` device codes back to host storage, waiting for the copy.
pub(crate) fn download(codes: &DeviceCodes, len: usize) -> Result<Storage, Error> {
    let stream = &gpu_on(codes.ordinal())?.stream;
    if len == 0 {
        // Nothing to copy (the buffer holds only the stand-in code of `upload`).
        return Ok(match codes {
            DeviceCodes::U8(_) => Storage::HostU8(Vec::new().into()),
            DeviceCodes::U16(_) => Storage::HostU16(Vec::new().into()),
        });
    }
    let err = driver("copying codes to the host");
    let storage = match codes {
        DeviceCodes::U8(d) => Storage::HostU8(stream.clone_dtoh(&d.slice(..len)).map_err(&err)?.into()),
        DeviceCodes::U16(d) => Storage::HostU16(stream.clone_dtoh(&d.slice(..len)).map_err(&err)?.into()),
    };
    stream.synchronize().map_err(err)?;
    Ok(storage)
}

impl Codes {
    /// The same codes on CUDA device `ktc::cuda_device()` (0 unless set): copied there
    /// from the host, or a cheap clone when already there. An [`Error::Cuda`] where CUDA
    /// is unusable (no driver, no device).
    pub fn to_device(&self) -> Result<Codes, Error> {
        let storage = match self.host() {
            Some(host) => Storage::Device(Arc::new(upload(gpu()?, host)?)),
            None => self.storage.clone(),
        };
        Ok(Codes::from_parts(storage, self.n_rows(), self.n_cols(), self.bins()))
    }

    /// The same codes on the host: copied back from a device, or a cheap clone.
    pub fn to_host(&self) -> Result<Codes, Error> {
        let storage = match &self.storage {
            Storage::Device(d) => download(d, self.n_rows() * self.n_cols())?,
            other => other.clone(),
        };
        Ok(Codes::from_parts(storage, self.n_rows(), self.n_cols(), self.bins()))
    }
}
