//! The fingerprint's CPU part: the model, and what the model's name leaves out that
//! still changes which variant wins.
//!
//! - **The logical CPUs a process's thread pools get.** A parallel variant's lead
//!   depends on them: the same CPU model is sold as 2-vCPU and 64-vCPU cloud machines,
//!   and a choice between `pairs` and `par_pairs` measured on one is wrong on the other.
//! - **The CPUID family and model, where the brand string names no model number.**
//!   Hypervisors often pass a generic brand: the development VMs of this project read
//!   `Intel(R) Xeon(R) Processor` (family 6, model 167) on one day and `AMD EPYC` on
//!   another, so `intel-xeon` alone could stand for several generations of cores.

/// The CPU part of the fingerprint: `<model-slug>[-fam<F>-mod<M>]-<N>cpu`.
///
/// `signature` is the CPUID (family, model), added only where `model_slug` holds no
/// digit (no model number of its own); `cpus` is the count from [`logical_cpus`].
pub(super) fn cpu_part(model_slug: &str, signature: Option<(u8, u8)>, cpus: usize) -> String {
    let named = model_slug.bytes().any(|b| b.is_ascii_digit());
    match signature.filter(|_| !named) {
        Some((family, model)) => format!("{model_slug}-fam{family}-mod{model}-{cpus}cpu"),
        None => format!("{model_slug}-{cpus}cpu"),
    }
}

/// The CPUID family and model (extended fields folded in), where CPUID exists.
pub(super) fn signature() -> Option<(u8, u8)> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if let Some(info) = raw_cpuid::CpuId::new().get_feature_info() {
        return Some((info.family_id(), info.model_id()));
    }
    None
}

/// How many threads a thread pool started by default gets in this process, by rayon's
/// rule, since rayon runs the parallel CPU variants this crate's kernels ship:
/// `RAYON_NUM_THREADS` where it is a positive number, else (where it is unset or not a
/// number) the older `RAYON_RS_NUM_CPUS`, else the CPUs this process may use (affinity
/// and cgroup quota included), else 1.
pub(super) fn logical_cpus() -> usize {
    let var = |name| std::env::var(name).ok();
    let available = std::thread::available_parallelism().ok().map(|n| n.get());
    pool_threads(var("RAYON_NUM_THREADS").as_deref(), var("RAYON_RS_NUM_CPUS").as_deref(), available)
}

/// [`logical_cpus`] from its inputs: the two variables' values and the available count.
fn pool_threads(requested: Option<&str>, legacy: Option<&str>, available: Option<usize>) -> usize {
    let number = |v: Option<&str>| v.and_then(|v| v.parse::<usize>().ok());
    let default = available.unwrap_or(1).max(1);
    match number(requested) {
        Some(n @ 1..) => n,
        Some(0) => default,
        None => number(legacy).filter(|&n| n > 0).unwrap_or(default),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_number_needs_no_signature() {
        assert_eq!(
            cpu_part("intel-xeon-platinum-8480", Some((6, 143)), 16),
            "intel-xeon-platinum-8480-16cpu"
        );
        assert_eq!(cpu_part("amd-ryzen-9-5950x", Some((25, 33)), 32), "amd-ryzen-9-5950x-32cpu");
    }

    #[test]
    fn a_generic_brand_gets_the_cpuid_signature() {
        assert_eq!(cpu_part("intel-xeon", Some((6, 167)), 2), "intel-xeon-fam6-mod167-2cpu");
        assert_eq!(cpu_part("amd-epyc", Some((25, 17)), 2), "amd-epyc-fam25-mod17-2cpu");
        // Without CPUID (not x86) the name is all there is.
        assert_eq!(cpu_part("apple-m", None, 8), "apple-m-8cpu");
    }

    #[test]
    fn the_same_model_with_other_cpu_counts_differs() {
        let small = cpu_part("intel-xeon", Some((6, 167)), 2);
        let large = cpu_part("intel-xeon", Some((6, 167)), 64);
        assert_ne!(small, large);
    }

    #[test]
    fn pool_threads_follow_rayons_rule() {
        assert_eq!(pool_threads(None, None, Some(4)), 4);
        assert_eq!(pool_threads(Some("3"), None, Some(4)), 3);
        assert_eq!(pool_threads(Some("3"), Some("5"), Some(4)), 3);
        // Zero means the default and skips the older variable; a value that is not a
        // number is as good as unset. Both as in rayon-core 1.13.
        assert_eq!(pool_threads(Some("0"), Some("5"), Some(4)), 4);
        assert_eq!(pool_threads(Some("many"), Some("5"), Some(4)), 5);
        assert_eq!(pool_threads(Some(" 12 "), None, Some(4)), 4);
        assert_eq!(pool_threads(None, Some("0"), None), 1);
        assert_eq!(pool_threads(None, None, None), 1);
    }
}
