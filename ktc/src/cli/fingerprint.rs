//! `ktc fingerprint`: this host's fingerprint per device, the provenance stamp, and the
//! code version of every linked kernel.

use super::context::{Ctx, Failure};
use crate::provenance::{KernelIdentity, Provenance};
use crate::retune::Device;
use serde_json::json;
use std::fmt::Write;

pub(crate) fn run(ctx: &Ctx) -> Result<String, Failure> {
    let count = crate::cuda::device_count();
    let mut devices = vec![(Device::Cpu, crate::hw_fingerprint_for(0))];
    devices.extend((0..count).map(|d| (Device::Cuda(d), crate::hw_fingerprint_for(d))));
    let provenance = Provenance::current(&KernelIdentity::UNSPECIFIED);
    let kernels: Vec<(&str, &str, String)> = ctx
        .kernels
        .iter()
        .map(|t| (t.name, t.identity.crate_name, Provenance::current(&t.identity).code_version()))
        .collect();
    if ctx.json {
        let value = json!({
            "fingerprint": ctx.cache.fingerprint(),
            "devices": devices.iter().map(|(d, fp)| json!({"device": d.to_string(), "fingerprint": fp})).collect::<Vec<_>>(),
            "provenance": provenance,
            "kernels": kernels.iter().map(|(k, c, v)| json!({"kernel": k, "crate": c, "code_version": v})).collect::<Vec<_>>(),
        });
        return Ok(Ctx::json_text(&value));
    }
    let mut out = String::new();
    let _ = writeln!(out, "fingerprint: {}", ctx.cache.fingerprint());
    for (device, fp) in &devices {
        let _ = writeln!(out, "  {device}: {fp}");
    }
    let _ = writeln!(out, "provenance:");
    let _ = writeln!(
        out,
        "  ktc {}, {}, {} build",
        provenance.ktc_version, provenance.rustc_version, provenance.build_profile
    );
    let none = || "none".to_string();
    let _ = writeln!(
        out,
        "  cuda driver: {}, nvrtc: {}",
        provenance.cuda_driver.clone().unwrap_or_else(none),
        provenance.nvrtc.clone().unwrap_or_else(none)
    );
    let _ = writeln!(out, "  gpu: {}", provenance.gpu.as_ref().map_or_else(none, |g| g.to_string()));
    if kernels.is_empty() {
        let _ = writeln!(out, "kernels: none linked into this binary");
    } else {
        let _ = writeln!(out, "kernels:");
        for (kernel, krate, version) in &kernels {
            let _ = writeln!(out, "  {kernel} ({krate}): code version {version}");
        }
    }
    Ok(out)
}
