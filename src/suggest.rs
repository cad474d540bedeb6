//! "Did you mean …?" suggestions for misspelled names (fields, listeners, route rules, targets).

/// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (prev[j] + 1)
                .min(current[j - 1] + 1)
                .min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(prev2[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut current);
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo
/// (at most a third of the name's length, and at least one edit away; case-insensitive matches win).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let d = if c.eq_ignore_ascii_case(name) {
                0
            } else {
                edit_distance(name, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// `did you mean `x`?` for the closest candidate, if one is close enough: a finding's help.
pub fn did_you_mean_help<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(did_you_mean_text)
}

/// `did you mean `x`?`, for a suggestion found otherwise than by spelling (a renamed key).
pub fn did_you_mean_text(suggestion: &str) -> String {
    format!("did you mean `{suggestion}`?")
}

/// `; did you mean `x`?` for the closest candidate, or nothing: the tail of a usage error.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates)
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("limits", "limit"), 1);
        assert_eq!(edit_distance("htpps", "https"), 1);
        assert_eq!(edit_distance("abc", "xyz"), 3);
    }

    #[test]
    fn suggestions_only_for_plausible_typos() {
        assert_eq!(closest("htpps", ["http", "https"]), Some("https"));
        assert_eq!(closest("Limits", ["limits", "when"]), Some("limits"));
        assert_eq!(closest("foo", ["bar", "baz"]), None);
    }
}
