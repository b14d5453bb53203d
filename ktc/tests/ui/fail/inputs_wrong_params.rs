#[ktc::tunable(axes(n = data.len(), k = bins), sweep(n = [10], k = [4]))]
pub mod kernel {
    #[inputs]
    pub fn inputs(k: usize, n: usize) -> (Vec<u64>, usize) {
        (vec![0; n], k)
    }

    #[variant(reference)]
    pub fn serial(data: &[u64], bins: usize) -> u64 {
        data.iter().sum::<u64>() % bins as u64
    }
}

fn main() {}
