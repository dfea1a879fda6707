//! A knowledge graph read from plain files: `subject<TAB>relation<TAB>object` triples and a names file.
//!
//! A graph directory holds triple files (`train.txt`, `valid.txt`, `test.txt`, `triples.tsv`, or a
//! `.tar.gz` with them, as FB15k-237 ships), a names file (`entity2text.txt` or `names.tsv`:
//! `id<TAB>name`) and optionally `entity2wikidata.json` (`{id: {label, description}}`) for
//! descriptions. Entities without a name are left out: a generated sentence never shows a raw id.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};

pub type Id = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fact {
    pub subject: Id,
    pub relation: u16,
    pub object: Id,
}

pub struct Entity {
    pub key: String,
    pub name: String,
    pub description: Option<String>,
}

pub struct Graph {
    pub entities: Vec<Entity>,
    pub relations: Vec<String>,
    /// Sorted and without duplicates.
    pub facts: Vec<Fact>,
    /// Per entity, the range of `facts` it is the subject of.
    by_subject: Vec<(usize, usize)>,
    /// Per relation, the sorted distinct objects it has (its range, as the data shows it).
    objects: Vec<Vec<Id>>,
    /// Per relation, the share of its subjects with exactly one object.
    single_valued: Vec<f32>,
    /// Per relation, the classes of its subjects and of its objects (Freebase type ids such as
    /// `people.person`), from the schema file when the graph has one.
    classes: Vec<(Option<String>, Option<String>)>,
}

const TRIPLE_FILES: [&str; 4] = ["train.txt", "valid.txt", "test.txt", "triples.tsv"];
const NAME_FILES: [&str; 2] = ["entity2text.txt", "names.tsv"];
/// Freebase's schema (GrailQA's ontology): `domain<SPACE>relation<SPACE>range` per line, relations
/// written with dots (`people.person.place_of_birth`).
const ROLES_FILE: &str = "fb_roles";
/// Names longer than this are not names but descriptions; such entities are skipped.
const MAX_NAME_CHARS: usize = 80;

fn triple_texts(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut texts = Vec::new();
    for f in TRIPLE_FILES {
        let p = dir.join(f);
        if p.exists() {
            texts.push(std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?);
        }
    }
    if !texts.is_empty() {
        return Ok(texts);
    }
    let mut archives: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .collect();
    archives.sort();
    for a in archives {
        let file = std::fs::File::open(&a).with_context(|| format!("opening {}", a.display()))?;
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
        let mut found: Vec<(String, String)> = Vec::new();
        for entry in tar.entries().with_context(|| format!("reading {}", a.display()))? {
            let mut entry = entry?;
            let name = entry.path()?.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if TRIPLE_FILES.contains(&name.as_str()) {
                let mut s = String::new();
                entry.read_to_string(&mut s).with_context(|| format!("{} in {}", name, a.display()))?;
                found.push((name, s));
            }
        }
        found.sort(); // archive order must not change the output
        texts.extend(found.into_iter().map(|(_, s)| s));
    }
    if texts.is_empty() {
        bail!("{}: no triple file ({} or a .tar.gz holding them)", dir.display(), TRIPLE_FILES.join(", "));
    }
    Ok(texts)
}

/// FB15k-237's names carry Freebase locale tags on some entities ("Actor-GB", "Mountain Time Zone-US").
fn without_locale_suffix(name: &str) -> &str {
    match name.rsplit_once('-') {
        Some((head, tag))
            if tag.len() == 2 && tag.chars().all(|c| c.is_ascii_alphabetic()) && head.ends_with(|c: char| c.is_alphanumeric()) =>
        {
            head
        }
        _ => name,
    }
}

impl Graph {
    pub fn read(dir: &Path) -> anyhow::Result<Graph> {
        let names_path = NAME_FILES
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.exists())
            .with_context(|| format!("{}: no names file ({})", dir.display(), NAME_FILES.join(" or ")))?;
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        for line in std::fs::read_to_string(&names_path).with_context(|| format!("reading {}", names_path.display()))?.lines() {
            if let Some((k, v)) = line.split_once('\t') {
                let v = without_locale_suffix(v.trim());
                if !v.is_empty() && v.chars().count() <= MAX_NAME_CHARS {
                    names.insert(k.trim().to_string(), v.to_string());
                }
            }
        }
        let mut descriptions: BTreeMap<String, String> = BTreeMap::new();
        let wd = dir.join("entity2wikidata.json");
        if wd.exists() {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&wd)?).with_context(|| format!("parsing {}", wd.display()))?;
            for (k, e) in v.as_object().into_iter().flatten() {
                // Wikidata's label is the cleaner name ("actor" where entity2text has "Actor-GB").
                if let Some(label) =
                    e.get("label").and_then(|d| d.as_str()).filter(|l| !l.is_empty() && l.chars().count() <= MAX_NAME_CHARS)
                {
                    if names.contains_key(k) {
                        names.insert(k.clone(), label.to_string());
                    }
                }
                if let Some(d) = e.get("description").and_then(|d| d.as_str()).filter(|d| !d.is_empty() && d.len() < 120) {
                    descriptions.insert(k.clone(), d.to_string());
                }
            }
        }
        let mut entity_ix: BTreeMap<String, Id> = BTreeMap::new();
        let mut relation_ix: BTreeMap<String, u16> = BTreeMap::new();
        let mut raw: BTreeSet<(String, String, String)> = BTreeSet::new();
        for text in triple_texts(dir)? {
            for line in text.lines() {
                let mut it = line.split('\t');
                let (Some(s), Some(r), Some(o)) = (it.next(), it.next(), it.next()) else { continue };
                if names.contains_key(s) && names.contains_key(o) && s != o {
                    raw.insert((s.to_string(), r.to_string(), o.to_string()));
                }
            }
        }
        if raw.is_empty() {
            bail!("{}: no triple whose two ends have names", dir.display());
        }
        for (s, r, o) in &raw {
            for e in [s, o] {
                let n = entity_ix.len() as Id;
                entity_ix.entry(e.clone()).or_insert(n);
            }
            let n = relation_ix.len();
            if n >= u16::MAX as usize && !relation_ix.contains_key(r) {
                bail!("more than {} relations", u16::MAX);
            }
            relation_ix.entry(r.clone()).or_insert(n as u16);
        }
        let mut entities: Vec<(Id, Entity)> = entity_ix
            .iter()
            .map(|(k, &i)| (i, Entity { key: k.clone(), name: names[k].clone(), description: descriptions.get(k).cloned() }))
            .collect();
        entities.sort_by_key(|(i, _)| *i);
        let mut relations: Vec<(u16, String)> = relation_ix.iter().map(|(k, &i)| (i, k.clone())).collect();
        relations.sort_by_key(|(i, _)| *i);
        let mut facts: Vec<Fact> =
            raw.iter().map(|(s, r, o)| Fact { subject: entity_ix[s], relation: relation_ix[r], object: entity_ix[o] }).collect();
        facts.sort();
        facts.dedup();
        let n = entities.len();
        let mut by_subject = vec![(0, 0); n];
        let mut i = 0;
        while i < facts.len() {
            let s = facts[i].subject;
            let start = i;
            while i < facts.len() && facts[i].subject == s {
                i += 1;
            }
            by_subject[s as usize] = (start, i);
        }
        let nr = relations.len();
        let mut objects: Vec<BTreeSet<Id>> = vec![BTreeSet::new(); nr];
        let mut subject_counts: Vec<BTreeMap<Id, usize>> = vec![BTreeMap::new(); nr];
        for f in &facts {
            objects[f.relation as usize].insert(f.object);
            *subject_counts[f.relation as usize].entry(f.subject).or_default() += 1;
        }
        let single_valued = subject_counts
            .iter()
            .map(|m| if m.is_empty() { 0.0 } else { m.values().filter(|&&c| c == 1).count() as f32 / m.len() as f32 })
            .collect();
        let roles = read_roles(&dir.join(ROLES_FILE))?;
        let classes = relations.iter().map(|(_, r)| classes_of(r, &roles)).collect();
        Ok(Graph {
            classes,
            entities: entities.into_iter().map(|(_, e)| e).collect(),
            relations: relations.into_iter().map(|(_, r)| r).collect(),
            facts,
            by_subject,
            objects: objects.into_iter().map(|s| s.into_iter().collect()).collect(),
            single_valued,
        })
    }

    pub fn about(&self, subject: Id) -> &[Fact] {
        let (a, b) = self.by_subject[subject as usize];
        &self.facts[a..b]
    }

    pub fn holds(&self, subject: Id, relation: u16, object: Id) -> bool {
        self.about(subject).binary_search(&Fact { subject, relation, object }).is_ok()
    }

    pub fn objects_of(&self, subject: Id, relation: u16) -> impl Iterator<Item = Id> + '_ {
        self.about(subject).iter().filter(move |f| f.relation == relation).map(|f| f.object)
    }

    /// The subject's first fact of the relation, if it has one.
    pub fn fact_with(&self, subject: Id, relation: u16) -> Option<Fact> {
        self.about(subject).iter().copied().find(|f| f.relation == relation)
    }

    /// Every object the relation has anywhere: the entities of its type.
    pub fn range(&self, relation: u16) -> &[Id] {
        &self.objects[relation as usize]
    }

    /// Most subjects have one object: saying another one contradicts the first.
    pub fn single_valued(&self, relation: u16) -> bool {
        self.single_valued[relation as usize] >= SINGLE_VALUED_SHARE
    }

    pub fn name(&self, e: Id) -> &str {
        &self.entities[e as usize].name
    }

    /// The class of the relation's subjects (`people.person`), when the schema gives it.
    pub fn domain_class(&self, relation: u16) -> Option<&str> {
        self.classes[relation as usize].0.as_deref()
    }

    /// The class of the relation's objects (`location.location`), when the schema gives it.
    pub fn range_class(&self, relation: u16) -> Option<&str> {
        self.classes[relation as usize].1.as_deref()
    }
}

/// The schema's relations with their domain and range; empty when the graph has no schema file.
fn read_roles(path: &Path) -> anyhow::Result<BTreeMap<String, (String, String)>> {
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let (d, r, g) = (it.next()?, it.next()?, it.next()?);
            Some((r.to_string(), (d.to_string(), g.to_string())))
        })
        .collect())
}

/// A graph relation's subject and object classes. FB15k-237 writes a relation as a path, through a
/// mediator node when it has one (`/film/actor/film./film/performance/film`): the subjects are the
/// first hop's domain, the objects the last hop's range.
fn classes_of(relation: &str, roles: &BTreeMap<String, (String, String)>) -> (Option<String>, Option<String>) {
    let hops: Vec<String> = relation.split("./").map(|h| h.trim_matches('/').replace('/', ".")).collect();
    let (first, last) = (hops.first().and_then(|h| roles.get(h)), hops.last().and_then(|h| roles.get(h)));
    (first.map(|(d, _)| d.clone()), last.map(|(_, g)| g.clone()))
}

/// Share of a relation's subjects that have exactly one object, above which the relation counts as
/// single-valued (place of birth 1.00; spouse 0.92 and nationality 0.86, which people can have
/// several of, fall below; measured on FB15k-237). Only such relations make contradictions: "X is a comedy" does not deny "X is a drama".
pub const SINGLE_VALUED_SHARE: f32 = 0.95;

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn reads_triples_and_names_and_skips_unnamed_entities() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "triples.tsv", "a\tborn\tx\nb\tborn\ty\nc\tborn\tz\na\tlikes\tx\na\tlikes\ty\nq\tborn\tx\n");
        write(d.path(), "names.tsv", "a\tAnn\nb\tBob\nc\tCy\nx\tParis\ny\tRome\nz\tOslo\n");
        let g = Graph::read(d.path()).unwrap();
        assert_eq!(g.facts.len(), 5, "q has no name");
        let born = g.relations.iter().position(|r| r == "born").unwrap() as u16;
        let likes = g.relations.iter().position(|r| r == "likes").unwrap() as u16;
        assert!(g.single_valued(born));
        assert!(!g.single_valued(likes));
        assert_eq!(g.range(born).len(), 3);
        let a = g.entities.iter().position(|e| e.name == "Ann").unwrap() as Id;
        assert_eq!(g.objects_of(a, likes).count(), 2);
    }

    #[test]
    fn relation_classes_come_from_the_schema_through_mediators() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "triples.tsv", "a\t/film/actor/film./film/performance/film\tx\na\t/people/person/nationality\ty\n");
        write(d.path(), "names.tsv", "a\tAnn\nx\tJaws\ny\tFrance\n");
        write(d.path(), "fb_roles", "film.actor film.actor.film film.performance\nfilm.performance film.performance.film film.film\n");
        let g = Graph::read(d.path()).unwrap();
        let acted = g.relations.iter().position(|r| r.starts_with("/film/actor")).unwrap() as u16;
        assert_eq!(g.domain_class(acted), Some("film.actor"));
        assert_eq!(g.range_class(acted), Some("film.film"));
        let nat = g.relations.iter().position(|r| r.ends_with("nationality")).unwrap() as u16;
        assert_eq!(g.range_class(nat), None, "not in the schema");
    }

    #[test]
    fn locale_tags_are_dropped_from_names() {
        assert_eq!(without_locale_suffix("Actor-GB"), "Actor");
        assert_eq!(without_locale_suffix("Mountain Time Zone-US"), "Mountain Time Zone");
        assert_eq!(without_locale_suffix("Jean-Luc"), "Jean-Luc");
        assert_eq!(without_locale_suffix("Coca-Cola"), "Coca-Cola");
    }

    #[test]
    fn a_directory_without_triples_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "names.tsv", "a\tAnn\n");
        let e = Graph::read(d.path()).err().unwrap().to_string();
        assert!(e.contains("no triple file"), "{e}");
    }
}
