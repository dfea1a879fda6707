//! Which cited passages are linked, so that two names of a claim named only in passages nothing
//! links are read as unlinked (`PassageLinks::unlinked`): a chain's missing hop.

use super::*;

/// Which cited passages are linked: one names a name of the other, so they speak of the same things
/// (a chain's bridge, "England"; the topic of two passages about one bridge). Each passage's `title`
/// counts as part of it. Built once per sentence from its cited passages; `unlinked` asks it per claim.
pub struct PassageLinks {
    passages: Vec<Analysed>,
    /// Per passage, the first passage of its linked group.
    group: Vec<usize>,
}

impl PassageLinks {
    pub fn new(passages: Vec<Analysed>) -> Self {
        // Passages that share a name are one source of knowledge about it: join them (union-find).
        let mut group: Vec<usize> = (0..passages.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for (a, passage) in passages.iter().enumerate() {
            // Any shared name links, a title that is a number ("2046") included.
            for e in passage.names() {
                for (b, other) in passages.iter().enumerate().filter(|(b, _)| *b != a) {
                    if other.mentions().mentions_all(&e.text) {
                        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                        group[ra] = rb;
                    }
                }
            }
        }
        let group = (0..passages.len()).map(|i| root(&mut group, i)).collect();
        PassageLinks { passages, group }
    }

    /// Two names of the claim that the passages name only apart: no passage names both, and no
    /// chain of linked passages joins one's passages to the other's. "The contained place of Keith
    /// Moon's nationality is University of Reading" against a passage about Keith Moon's films and
    /// one about England, which includes the University of Reading: each name is there, the link
    /// between them (his nationality) is not, so the claim is at most partly supported, however
    /// fluent the model finds it. One passage, or a name no passage names, is left to the other checks.
    pub fn unlinked(&self, claim: &Analysed) -> Option<(String, String)> {
        if self.passages.len() < 2 {
            return None;
        }
        let mut names: Vec<String> = claim
            .names()
            .iter()
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
            .map(|n| {
                (
                    n,
                    self.passages
                        .iter()
                        .zip(&self.group)
                        .filter(|(p, _)| p.mentions().mentions(n))
                        .map(|(_, &g)| g)
                        .collect::<Vec<usize>>(),
                )
            })
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

#[cfg(test)]
mod tests {
    use super::super::ev;
    use super::*;

    fn unlinked_names(claim: &str, passages: &[String]) -> Option<(String, String)> {
        PassageLinks::new(passages.iter().map(|p| Analysed::new(p.as_str())).collect()).unlinked(&Analysed::new(claim))
    }

    #[test]
    fn names_in_passages_nothing_links_are_unlinked() {
        let claim = "The contained place of Keith Moon's nationality is University of Reading.";
        let apart = ev(&[
            "Keith Moon, English musician, acted in Tommy.",
            "England includes University of Reading. It is governed as a constitutional monarchy.",
        ]);
        let (a, b) = unlinked_names(claim, &apart).expect("no passage joins Keith Moon to the University of Reading");
        assert_eq!((a.as_str(), b.as_str()), ("Keith Moon", "University of Reading"));
        // The bridge named in both passages links them, as in a chain the sources state whole.
        let bridged = ev(&["Keith Moon holds the nationality of England.", "England includes University of Reading."]);
        assert_eq!(unlinked_names(claim, &bridged), None);
        // Through a third passage: Get Carter (1) - Morgan Creek (2) - …; Elie Samaha only in (3).
        let claim = "Get Carter was produced by Elie Samaha.";
        let three = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Elie Samaha holds the nationality of Lebanon.",
        ]);
        assert!(unlinked_names(claim, &three).is_some());
        let chained = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Morgan Creek Productions was run by Elie Samaha.",
        ]);
        assert_eq!(unlinked_names(claim, &chained), None);
    }

    #[test]
    fn one_passage_a_shared_topic_or_an_unnamed_name_is_no_unlinked_pair() {
        let claim = "Rick Scott attended Southern Methodist University.";
        assert_eq!(unlinked_names(claim, &ev(&["Rick Scott went to law school at Southern Methodist University."])), None);
        // Two passages about one subject: the subject links them.
        let topic = ev(&["Rick Scott was governor of Florida.", "Scott earned a law degree from Southern Methodist University."]);
        assert_eq!(unlinked_names(claim, &topic), None);
        // A title is part of its passage ("Southern Methodist University — Wikipedia").
        let titled = ev(&["Rick Scott was governor of Florida.", "Southern Methodist University. Its alumni include Rick Scott."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // A title that is a number links the passages about it.
        let claim = "2046 is a production of Hong Kong and counts Wong Kar-wai among its producers.";
        let titled =
            ev(&["2046 was produced in Hong Kong.", "2046 was released in United States of America. 2046 was produced by Wong Kar-wai."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // Two names of one thing, and a list of names, need no link.
        let amoc = ev(&["The AMOC moves warm water north.", "Atlantic Meridional Overturning Circulation is a system of currents."]);
        assert_eq!(unlinked_names("AMOC stands for Atlantic Meridional Overturning Circulation.", &amoc), None);
        let list = "Sources include the National Institutes of Health (NIH), the Centers for Disease Control (CDC) and the Mayo Clinic.";
        let one_each = ev(&["The NIH funds asthma research.", "The CDC tracks asthma.", "The Mayo Clinic treats asthma."]);
        assert_eq!(unlinked_names(list, &one_each), None);
        // A name no passage gives is another check's business (a fact the evidence lacks).
        let absent = ev(&["Rick Scott was governor of Florida.", "The university is in Dallas."]);
        assert_eq!(unlinked_names(claim, &absent), None);
    }
}
