//! A `#[verify]` function, a `&mut` parameter that is not a slice, a by-value
//! parameter that is not `Copy`, and a return value: all part of the compared output.

#[ktc::tunable(axes(n = v.len()), sweep(n = [4, 32]))]
pub mod sort {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<i32>, String) {
        ((0..n as i32).rev().collect(), "sorted".to_owned())
    }

    #[variant(reference)]
    pub fn stable(v: &mut Vec<i32>, tag: String) -> usize {
        v.sort();
        tag.len()
    }

    #[variant]
    pub fn unstable(v: &mut Vec<i32>, tag: String) -> usize {
        v.sort_unstable();
        tag.len()
    }

    #[verify]
    fn same_order(reference: &(Vec<i32>, usize), candidate: &(Vec<i32>, usize)) -> Result<(), String> {
        if reference == candidate { Ok(()) } else { Err(format!("{reference:?} vs {candidate:?}")) }
    }
}

fn main() {
    let mut v = vec![3, 1, 2];
    assert_eq!(sort::call(&mut v, "abc".into()), 3);
    assert_eq!(v, [1, 2, 3]);
    let mut w = vec![2, 1];
    assert_eq!(sort::call_with(sort::Variant::Unstable, None, &mut w, String::new()), 0);
    assert_eq!(w, [1, 2]);
    println!("{}", sort::explain(&mut v, String::new()));
    assert_eq!(sort::Variant::ALL.len(), 2);
    assert_eq!("stable".parse::<sort::Variant>(), Ok(sort::Variant::Stable));
    assert!("serial".parse::<sort::Variant>().is_err());
}
