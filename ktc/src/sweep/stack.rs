//! Running a timed sample at a varying depth of the stack, so that no candidate is
//! timed at one stack address only.
//!
//! How fast a short kernel runs depends on where its stack frame lies relative to the
//! data it touches, and address-space layout randomisation puts the stack somewhere
//! else in every process. On the 2-core development VM (AMD EPYC), `joint_hist_batched`'s
//! `pairs` and `par_pairs` at 32 178 samples × 2 features run the same counting loop
//! (with two features `par_pairs` has one task, which runs on the caller), 12.4 µs a
//! call; yet in about one process in ten one of the two ran 1.2–2.0× slower than the
//! other in every one of 21 interleaved rounds, and in six looks at fresh inputs in a
//! row (0.83, 1.22, 1.41 in all six). With layout randomisation off (`setarch -R`),
//! 20 processes of 20 measured them within 4% of each other; timed at a random one of
//! 128 stack depths per sample, no process of 40 kept such a gap over its six looks
//! (probes, not committed). A sweep or a `verify` timed at one depth measured its
//! process's luck: `verify` once reported a regret of 1.27 for `par_pairs` against
//! `pairs` at that size, two variants running the same code. Stabilizer (Curtsinger
//! and Berger, 2013) randomises layout for the same reason.
//!
//! Twelve alternating runs a side of `cargo bench --bench tuning_quality`, every entry
//! judged by the same `verify` (at random depths): sweeps at random depths met every
//! target of issue 11 in 11 runs of 12 for each kernel, sweeps at one depth in 9
//! (`joint_hist_batched`) and 7 (`discretize`).

use std::hint::black_box;
use std::mem::MaybeUninit;

/// Bytes each extra frame adds below the caller.
const FRAME_BYTES: usize = 512;

/// Depths a sample may run at, `0..DEPTHS` frames: 64 KiB of stack at most, so the
/// sample's frames start in any of 16 pages, at any 512-byte offset in them.
pub(super) const DEPTHS: u64 = 128;

/// Runs `run` `frames` frames of [`FRAME_BYTES`] deeper than the caller. The frames
/// are left uninitialised: writing them would evict the inputs from the cache
/// before the sample.
#[inline(never)]
pub(super) fn at_depth<R>(frames: u64, run: &mut dyn FnMut() -> R) -> R {
    let frame = MaybeUninit::<[u8; FRAME_BYTES]>::uninit();
    // The frame's address escapes, so the compiler must give it room on the stack.
    black_box(frame.as_ptr());
    if frames == 0 { run() } else { black_box(at_depth(frames - 1, run)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address_at(frames: u64) -> usize {
        at_depth(frames, &mut || {
            let local = 0u8;
            black_box(&raw const local) as usize
        })
    }

    #[test]
    fn each_frame_moves_the_sample_at_least_its_size_down_the_stack() {
        let (top, deeper) = (address_at(0), address_at(DEPTHS - 1));
        let moved = top - deeper;
        assert!(moved >= (DEPTHS as usize - 1) * FRAME_BYTES, "moved {moved} bytes");
        // And not absurdly far: a frame is the shim plus some bookkeeping.
        assert!(moved < (DEPTHS as usize - 1) * 2 * FRAME_BYTES, "moved {moved} bytes");
    }
}
