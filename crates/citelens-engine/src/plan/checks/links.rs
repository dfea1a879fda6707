//! Which cited passages are linked, so that two names of a claim named only in passages nothing
//! links are read as unlinked (`PassageLinks::unlinked`): a chain's missing hop.

use super::*;

/// Which cited passages are linked: one names a name of the other, so they speak of the same things
/// (a chain's bridge, "England"; the topic of two passages about one bridge). Each passage's `title`
/// counts as part of it. Built once per sentence from its cited passages; `unlinked` asks it per claim.
pub struct PassageLinks {
    mentions: Vec<Mentions>,
    /// Per passage, the first passage of its linked group.
    group: Vec<usize>,
}

impl PassageLinks {
    pub fn new(passages: &[String]) -> Self {
        let mentions: Vec<Mentions> = passages.iter().map(|p| Mentions::new(p)).collect();
        // Passages that share a name are one source of knowledge about it: join them (union-find).
        let mut group: Vec<usize> = (0..passages.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for (a, text) in passages.iter().enumerate() {
            // Any shared name links, a title that is a number ("2046") included.
            for e in entities::extract(text) {
                for (b, m) in mentions.iter().enumerate().filter(|(b, _)| *b != a) {
                    if m.mentions_all(&e.text) {
                        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                        group[ra] = rb;
                    }
                }
            }
        }
        let group = (0..passages.len()).map(|i| root(&mut group, i)).collect();
        PassageLinks { mentions, group }
    }

    /// Two names of the claim that the passages name only apart: no passage names both, and no
    /// chain of linked passages joins one's passages to the other's. "The contained place of Keith
    /// Moon's nationality is University of Reading" against a passage about Keith Moon's films and
    /// one about England, which includes the University of Reading: each name is there, the link
    /// between them (his nationality) is not, so the claim is at most partly supported, however
    /// fluent the model finds it. One passage, or a name no passage names, is left to the other checks.
    pub fn unlinked(&self, claim: &str) -> Option<(String, String)> {
        if self.mentions.len() < 2 {
            return None;
        }
        let mut names: Vec<String> = entities::extract(claim)
            .into_iter()
            .map(|e| e.text.trim_end_matches("'s").trim_end_matches("\u{2019}s").to_string())
            .filter(|t| t.chars().any(char::is_alphabetic) && !t.chars().any(|c| c.is_ascii_digit()))
            .collect();
        names.dedup();
        // A claim relates a subject to one or two other names; one naming more is a list ("sources
        // such as the NIH, the CDC, the American Lung Association …"), each name a fact the sources
        // may give apart.
        if names.len() > MAX_LINKED_NAMES {
            return None;
        }
        // The groups that name each of the claim's names the passages name at all.
        let found: Vec<(&String, Vec<usize>)> = names
            .iter()
            .map(|n| (n, self.mentions.iter().zip(&self.group).filter(|(m, _)| m.mentions(n)).map(|(_, &g)| g).collect::<Vec<usize>>()))
            .filter(|(_, groups)| !groups.is_empty())
            .collect();
        for (i, (a, ga)) in found.iter().enumerate() {
            for (b, gb) in &found[i + 1..] {
                if a != b && !is_acronym_of(a, b) && !is_acronym_of(b, a) && !ga.iter().any(|g| gb.contains(g)) {
                    return Some(((*a).clone(), (*b).clone()));
                }
            }
        }
        None
    }
}

/// Names a claim may have for `PassageLinks::unlinked` to read it as relating them (a subject, the name it
/// says something of, and a chain's middle name at most).
pub(super) const MAX_LINKED_NAMES: usize = 3;

/// "AMOC" for "Atlantic Meridional Overturning Circulation": one thing under two names, which need
/// no link.
pub(super) fn is_acronym_of(short: &str, long: &str) -> bool {
    let initials: String = long.split_whitespace().filter_map(|w| w.chars().next()).filter(|c| c.is_uppercase()).collect();
    short.len() >= 2 && short.chars().all(|c| c.is_ascii_uppercase() || c == '.') && initials == short.replace('.', "")
}
