//! "Did you mean ...?": the closest known name by edit distance.

/// Edit distance over bytes (optimal string alignment: insertions, deletions,
/// substitutions and transpositions of adjacent bytes each cost one). The
/// reference [`distance_within`] is tested against.
#[cfg(test)]
fn distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, x) in d.iter_mut().enumerate().take(w) {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// [`distance`] when it is at most `limit`, computed row by row with three
/// rows of memory; `None` as soon as two consecutive rows exceed `limit`
/// everywhere (no later entry can come back under it). Unknown words are
/// compared with every name of a table, so this runs often on bad input.
pub(crate) fn distance_within(a: &str, b: &str, limit: usize) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let w = b.len() + 1;
    let mut two_up: Vec<usize> = vec![0; w];
    let mut up: Vec<usize> = (0..w).collect();
    let mut row: Vec<usize> = vec![0; w];
    let mut up_over = up.iter().all(|&v| v > limit);
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (up[j] + 1).min(row[j - 1] + 1).min(up[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(two_up[j - 2] + 1);
            }
            row[j] = v;
        }
        let over = row.iter().all(|&v| v > limit);
        if over && up_over {
            return None;
        }
        up_over = over;
        std::mem::swap(&mut two_up, &mut up);
        std::mem::swap(&mut up, &mut row);
    }
    let d = up[b.len()];
    (d <= limit).then_some(d)
}

/// The candidate closest to `word`, if it is close enough to be a likely typo
/// (at most a third of the word's length, at least one edit). Ties go to the
/// earlier candidate, so the answer is deterministic.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.len() / 3).max(1);
    // Case is not a typo worth counting: `NUM_THREADS` suggests `num_threads`.
    let lower = word.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        // The distance is at least the difference in length: skip the
        // quadratic computation for candidates that cannot be close (a long
        // run of unknown words in a pragma would otherwise cost words² × names).
        if lower.len().abs_diff(c.len()) > limit {
            continue;
        }
        let d = if c == lower {
            Some(0)
        } else {
            distance_within(&lower, c, limit)
        };
        if let Some(d) = d {
            if best.map_or(true, |(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("tofro", "tofrom"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("nmu", "num"), 1);
        assert_eq!(distance("ab", ""), 2);
    }

    /// The bounded distance agrees with the full one wherever it answers,
    /// and answers exactly when the full one is within the limit.
    #[test]
    fn bounded_distance_agrees() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "tofro",
            "tofrom",
            "num_threads",
            "num_teams",
            "NUM",
            "paralel",
            "parallel",
            "firstprivte",
            "firstprivate",
            "xyzzy",
            "abcdefgh",
            "badcfehg",
            "map",
            "mapp",
            "aaaa",
            "aaab",
        ];
        for a in words {
            for b in words {
                let full = distance(a, b);
                for limit in 0..6 {
                    let want = (full <= limit).then_some(full);
                    assert_eq!(distance_within(a, b, limit), want, "{a:?} {b:?} {limit}");
                }
            }
        }
    }

    #[test]
    fn closest_respects_limit() {
        assert_eq!(closest("tofro", ["to", "from", "tofrom"]), Some("tofrom"));
        assert_eq!(closest("paralel", ["parallel", "for"]), Some("parallel"));
        assert_eq!(closest("xyz", ["parallel", "for"]), None);
        assert_eq!(
            closest("NUM_THREADS", ["num_teams", "num_threads"]),
            Some("num_threads")
        );
        // Length alone rules a candidate out; a long word is cheap.
        assert_eq!(closest("parallelxx", ["parallel"]), Some("parallel"));
        assert_eq!(closest("parallelxxxxxxxx", ["parallel"]), None);
        let long = "x".repeat(100_000);
        assert_eq!(closest(&long, ["parallel", "for"]), None);
    }
}
