#[ktc::tunable(axes(n = data.len(), k = bins), sweep(n = [1.5, 10], k = [4, host]))]
pub mod kernel {
    #[inputs]
    pub fn inputs(n: usize, k: usize) -> (Vec<u64>, usize) {
        (vec![0; n], k)
    }

    #[variant(reference)]
    pub fn serial(data: &[u64], bins: usize) -> u64 {
        data.iter().sum::<u64>() % bins as u64
    }
}

fn main() {}
