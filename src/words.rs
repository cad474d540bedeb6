//! English wording shared by messages and reports, so every count reads the same way
//! ("1 path", "2 paths") wherever it is printed.

/// `n` followed by `noun`, with an `s` unless `n` is 1: `counted(2, "path")` is `2 paths`.
pub fn counted(n: usize, noun: &str) -> String {
    counted_as(n, noun, &format!("{noun}s"))
}

/// `n` followed by `singular` when `n` is 1 and `plural` otherwise (`policy`/`policies`).
pub fn counted_as(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(counted(0, "path"), "0 paths");
        assert_eq!(counted(1, "path"), "1 path");
        assert_eq!(counted(2, "rule"), "2 rules");
        assert_eq!(counted_as(1, "policy", "policies"), "1 policy");
        assert_eq!(counted_as(3, "policy", "policies"), "3 policies");
    }
}
