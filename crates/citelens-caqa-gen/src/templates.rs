//! Hand-written phrasings for the relations that carry most of FB15k-237's triples.
//!
//! Each relation reads from subject to object. A predicate is what follows the subject in a sentence
//! ("was born in {o}"), so one phrasing serves an answer sentence, a passage sentence and a
//! two-constraint question ("Who was born in Cowes and works as an actor?"). Relations without a
//! template fall back to the words of their last path segment ("place of birth"), which is enough for
//! knowledge-graph (triple) citations; passage examples only use templated relations.

/// How a relation is said.
pub struct Phrasing {
    pub relation: &'static str,
    /// What the relation's subjects are asked with: "Who", "Which film", …
    pub wh: &'static str,
    /// A question about the subject, with `{s}`.
    pub question: &'static str,
    /// The relation as a noun ("birthplace"), for chained questions and triple citations.
    pub noun: &'static str,
    /// Predicates with `{o}` (the object's name as written), `{l}` (in lower case: a class such as
    /// "Actor" or "Drama") or `{a}` (lower case after an article); the first is the plainest. Answers and passages use different ones
    /// where there are several, so a passage paraphrases the answer instead of copying it.
    pub predicates: &'static [&'static str],
}

const fn p(
    relation: &'static str,
    wh: &'static str,
    question: &'static str,
    noun: &'static str,
    predicates: &'static [&'static str],
) -> Phrasing {
    Phrasing { relation, wh, question, noun, predicates }
}

pub const PHRASINGS: &[Phrasing] = &[
    p(
        "/people/person/profession",
        "Who",
        "What is {s}'s profession?",
        "profession",
        &["works as {a}", "is known as {a}", "has worked as {a}"],
    ),
    p(
        "/people/person/nationality",
        "Who",
        "What is {s}'s nationality?",
        "nationality",
        &["is a citizen of {o}", "holds the nationality of {o}", "has citizenship of {o}"],
    ),
    p(
        "/people/person/place_of_birth",
        "Who",
        "Where was {s} born?",
        "birthplace",
        &["was born in {o}", "is a native of {o}", "was born in the city of {o}"],
    ),
    p(
        "/people/deceased_person/place_of_death",
        "Who",
        "Where did {s} die?",
        "place of death",
        &["died in {o}", "passed away in {o}", "died in the city of {o}"],
    ),
    p(
        "/people/person/places_lived./people/place_lived/location",
        "Who",
        "Where has {s} lived?",
        "place of residence",
        &["lived in {o}", "has resided in {o}", "made a home in {o}"],
    ),
    p(
        "/people/person/religion",
        "Who",
        "What religion does {s} follow?",
        "religion",
        &["follows {o}", "is an adherent of {o}", "practises {o}"],
    ),
    p(
        "/people/person/spouse_s./people/marriage/spouse",
        "Who",
        "Who was {s} married to?",
        "spouse",
        &["was married to {o}", "wed {o}", "had {o} as a spouse"],
    ),
    p(
        "/people/person/languages",
        "Who",
        "What language does {s} speak?",
        "language",
        &["speaks {o}", "is a speaker of {o}", "can speak {o}"],
    ),
    p(
        "/people/person/employment_history./business/employment_tenure/company",
        "Who",
        "Where has {s} worked?",
        "employer",
        &["worked for {o}", "was employed by {o}", "held a job at {o}"],
    ),
    p(
        "/influence/influence_node/influenced_by",
        "Who",
        "Who influenced {s}?",
        "influence",
        &["was influenced by {o}", "drew inspiration from {o}", "counts {o} as an influence"],
    ),
    p(
        "/film/actor/film./film/performance/film",
        "Who",
        "Which films has {s} appeared in?",
        "film",
        &["appeared in {o}", "acted in {o}", "had a role in {o}"],
    ),
    p(
        "/film/director/film",
        "Who",
        "Which films did {s} direct?",
        "directed film",
        &["directed {o}", "was the director of {o}", "made the film {o} as director"],
    ),
    p(
        "/film/film/genre",
        "Which film",
        "What genre is the film {s}?",
        "genre",
        &["is a film of the {o} genre", "belongs to the {o} genre", "is classed as {o}"],
    ),
    p(
        "/film/film/language",
        "Which film",
        "What language is the film {s} in?",
        "language",
        &["is in {o}", "was made in {o}", "has dialogue in {o}"],
    ),
    p(
        "/film/film/country",
        "Which film",
        "Which country produced the film {s}?",
        "country of production",
        &["was produced in {o}", "is a production of {o}", "was made in the country of {o}"],
    ),
    p(
        "/film/film/produced_by",
        "Which film",
        "Who produced the film {s}?",
        "producer",
        &["was produced by {o}", "had {o} as producer", "counts {o} among its producers"],
    ),
    p(
        "/film/film/music",
        "Which film",
        "Who composed the music for {s}?",
        "composer",
        &["has music by {o}", "was scored by {o}", "features a score composed by {o}"],
    ),
    p(
        "/film/film/written_by",
        "Which film",
        "Who wrote the film {s}?",
        "screenwriter",
        &["was written by {o}", "has a screenplay by {o}", "was scripted by {o}"],
    ),
    p(
        "/film/film/story_by",
        "Which film",
        "Whose story is the film {s} based on?",
        "story author",
        &["is based on a story by {o}", "adapts a story by {o}", "takes its story from {o}"],
    ),
    p(
        "/film/film/cinematography",
        "Which film",
        "Who was the cinematographer of {s}?",
        "cinematographer",
        &["was shot by the cinematographer {o}", "has cinematography by {o}", "was photographed by {o}"],
    ),
    p(
        "/film/film/production_companies",
        "Which film",
        "Which company produced {s}?",
        "production company",
        &["was produced by the company {o}", "is a production of the studio {o}", "was made by the company {o}"],
    ),
    p(
        "/film/film/featured_film_locations",
        "Which film",
        "Where was {s} filmed?",
        "filming location",
        &["was filmed in {o}", "was shot on location in {o}", "has scenes filmed in {o}"],
    ),
    p(
        "/film/film/release_date_s./film/film_regional_release_date/film_release_region",
        "Which film",
        "Where was {s} released?",
        "release region",
        &["was released in {o}", "had a release in {o}", "came out in {o}"],
    ),
    p(
        "/film/film/executive_produced_by",
        "Which film",
        "Who was an executive producer of {s}?",
        "executive producer",
        &["was executive-produced by {o}", "had {o} as executive producer", "counts {o} among its executive producers"],
    ),
    p(
        "/award/award_winning_work/awards_won./award/award_honor/award",
        "Which work",
        "What award did {s} win?",
        "award won",
        &["won the {o}", "received the {o}", "was honoured with the {o}"],
    ),
    p(
        "/award/award_nominee/award_nominations./award/award_nomination/award",
        "Who",
        "Which award was {s} nominated for?",
        "award nomination",
        &["was nominated for the {o}", "received a nomination for the {o}", "was in the running for the {o}"],
    ),
    p(
        "/music/artist/origin",
        "Which artist",
        "Where does {s} come from?",
        "place of origin",
        &["comes from {o}", "originated in {o}", "started out in {o}"],
    ),
    p(
        "/music/group_member/membership./music/group_membership/role",
        "Who",
        "What does {s} play in a band?",
        "instrument",
        &["plays the {l}", "is a {l} player", "performs on the {l}"],
    ),
    p(
        "/music/artist/track_contributions./music/track_contribution/role",
        "Who",
        "What instrument does {s} play on recordings?",
        "instrument on recordings",
        &["plays the {l} on recordings", "has recorded on the {l}", "contributed {l} to recordings"],
    ),
    p(
        "/location/location/contains",
        "Which place",
        "What places are located in {s}?",
        "contained place",
        &["contains {o}", "includes {o}", "has {o} within its borders"],
    ),
    p(
        "/location/administrative_division/country",
        "Which region",
        "Which country is {s} in?",
        "country",
        &["is a region of {o}", "lies within {o}", "is an administrative division of {o}"],
    ),
    p(
        "/base/biblioness/bibs_location/country",
        "Which place",
        "Which country is {s} in?",
        "country",
        &["is located in {o}", "lies in {o}", "is a place in {o}"],
    ),
    p(
        "/location/location/time_zones",
        "Which place",
        "What time zone is {s} in?",
        "time zone",
        &["is in the {o}", "keeps the {o}", "observes the {o}"],
    ),
    p(
        "/location/location/adjoin_s./location/adjoining_relationship/adjoins",
        "Which place",
        "What does {s} border?",
        "neighbour",
        &["borders {o}", "shares a border with {o}", "is adjacent to {o}"],
    ),
    p(
        "/location/country/form_of_government",
        "Which country",
        "What form of government does {s} have?",
        "form of government",
        &["is governed as a {l}", "has a {l} as its form of government", "is run as a {l}"],
    ),
    p(
        "/organization/organization/headquarters./location/mailing_address/citytown",
        "Which organization",
        "Where is {s} headquartered?",
        "headquarters",
        &["is headquartered in {o}", "has its head office in {o}", "is based in {o}"],
    ),
    p(
        "/organization/organization_member/member_of./organization/organization_membership/organization",
        "Which organization",
        "What is {s} a member of?",
        "membership",
        &["is a member of {o}", "belongs to {o}", "holds membership in {o}"],
    ),
    p(
        "/business/business_operation/industry",
        "Which company",
        "What industry is {s} in?",
        "industry",
        &["operates in the {l} industry", "works in the {l} business", "is active in {l}"],
    ),
    p(
        "/education/educational_institution/school_type",
        "Which school",
        "What kind of institution is {s}?",
        "institution type",
        &["is {a}", "is classified as {a}", "operates as {a}"],
    ),
    p(
        "/education/educational_institution/colors",
        "Which school",
        "What are the colors of {s}?",
        "school color",
        &["uses {l} as one of its colors", "has {l} among its colors", "counts {l} among its official colors"],
    ),
    p(
        "/sports/sports_team/colors",
        "Which team",
        "What are the colors of {s}?",
        "team color",
        &["plays in {l}", "wears {l} as a team color", "has {l} among its colors"],
    ),
    p("/sports/sports_team/sport", "Which team", "What sport does {s} play?", "sport", &["plays {l}", "competes in {l}", "is a {l} team"]),
    p(
        "/sports/pro_athlete/teams./sports/sports_team_roster/team",
        "Who",
        "Which teams has {s} played for?",
        "team",
        &["played for {o}", "was on the roster of {o}", "appeared for {o}"],
    ),
    p(
        "/soccer/football_player/current_team./sports/sports_team_roster/team",
        "Who",
        "Which club does {s} play for?",
        "club",
        &["plays for {o}", "is on the squad of {o}", "turns out for {o}"],
    ),
    p(
        "/tv/tv_program/genre",
        "Which programme",
        "What genre is the series {s}?",
        "genre",
        &["is a {l} series", "belongs to the {l} genre", "is classed as a {l} programme"],
    ),
    p(
        "/tv/tv_program/country_of_origin",
        "Which programme",
        "Where does the series {s} come from?",
        "country of origin",
        &["is a series from {o}", "originated in {o}", "was first made in {o}"],
    ),
    p(
        "/tv/tv_program/regular_cast./tv/regular_tv_appearance/actor",
        "Which programme",
        "Who is in the regular cast of {s}?",
        "cast member",
        &["has {o} in its regular cast", "stars {o}", "features {o} as a regular"],
    ),
    p(
        "/language/human_language/countries_spoken_in",
        "Which language",
        "Where is {s} spoken?",
        "country spoken in",
        &["is spoken in {o}", "has speakers in {o}", "is a language of {o}"],
    ),
    p(
        "/time/event/locations",
        "Which event",
        "Where did {s} take place?",
        "location",
        &["took place in {o}", "was held in {o}", "happened in {o}"],
    ),
    p(
        "/military/military_conflict/combatants./military/military_combatant_group/combatants",
        "Which conflict",
        "Who fought in {s}?",
        "combatant",
        &["was fought by {o}", "involved {o} as a combatant", "saw {o} take part"],
    ),
];

pub fn phrasing(relation: &str) -> Option<&'static Phrasing> {
    PHRASINGS.iter().find(|p| p.relation == relation)
}

/// A relation's words when it has no template: its last path segment ("/a/b./c/place_of_birth" →
/// "place of birth").
pub fn relation_words(relation: &str) -> String {
    match phrasing(relation) {
        Some(p) => p.noun.to_string(),
        None => relation.rsplit('/').next().unwrap_or(relation).replace('_', " "),
    }
}

impl Phrasing {
    /// The predicate `ix` (wrapping) with the object filled in: `{o}` as written; `{l}` in lower
    /// case; `{a}` in lower case after "a" or "an".
    pub fn predicate(&self, ix: usize, object: &str) -> String {
        let lower = object.to_lowercase();
        let article = indefinite_article(&lower);
        self.predicates[ix % self.predicates.len()]
            .replace("{o}", object)
            .replace("{l}", &lower)
            .replace("{a}", &format!("{article} {lower}"))
    }

    /// Whether the relation's objects are classes ("{l}", "{a}": a profession, a genre, a form of
    /// government) rather than entities: one class often implies another ("author", "writer").
    pub fn class_valued(&self) -> bool {
        self.predicates.iter().any(|t| t.contains("{l}") || t.contains("{a}"))
    }

    pub fn ask(&self, subject: &str) -> String {
        self.question.replace("{s}", subject)
    }

    /// The predicates that can ask for their object in place (GrailQA's "… was born in which
    /// location?"): those that end with the object's slot, by index.
    pub fn asking_predicates(&self) -> Vec<usize> {
        (0..self.predicates.len()).filter(|&i| asking(self.predicates[i], "x").is_some()).collect()
    }

    /// Predicate `ix` with its object asked for as `phrase` ("which location"); `None` when the slot
    /// is not at its end ("is a film of the {o} genre" cannot take a wh-phrase).
    pub fn asking_predicate(&self, ix: usize, phrase: &str) -> Option<String> {
        asking(self.predicates[ix % self.predicates.len()], phrase)
    }
}

/// "an" before a lower-case word that starts with a vowel letter, else "a". By spelling, not sound,
/// so it writes "an university": the generated splits have always been made so.
pub fn indefinite_article(lower: &str) -> &'static str {
    if lower.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// A predicate template whose object slot ends it, with the slot (and an article before it) replaced
/// by a wh-phrase.
fn asking(template: &str, phrase: &str) -> Option<String> {
    for slot in ["{o}", "{l}", "{a}"] {
        if let Some(head) = template.strip_suffix(slot) {
            let head = ["the ", "a ", "an "].iter().find_map(|a| head.strip_suffix(a)).unwrap_or(head);
            return Some(format!("{head}{phrase}"));
        }
    }
    None
}

/// A Freebase class id as GrailQA's friendly names say it: "location.location" → "location",
/// "award.award_category" → "award category", "language.human_language" → "language".
pub fn class_words(class: &str) -> String {
    let last = class.rsplit('.').next().unwrap_or(class).replace('_', " ");
    // Schema words no question would use, as a person would ask ("drew inspiration from which
    // person", not "which influence node").
    match last.as_str() {
        "human language" => "language".into(),
        "influence node" => "person".into(),
        "performance role" => "instrument".into(),
        "film story contributor" => "writer".into(),
        "membership organization" => "organization".into(),
        "tv actor" => "actor".into(),
        _ => last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_objects_with_articles_and_case() {
        let p = phrasing("/people/person/profession").unwrap();
        assert_eq!(p.predicate(0, "Actor"), "works as an actor");
        assert_eq!(p.predicate(3, "Singer"), "works as a singer"); // wraps
        let b = phrasing("/people/person/place_of_birth").unwrap();
        assert_eq!(b.predicate(0, "Cowes"), "was born in Cowes");
        assert_eq!(b.ask("Jeremy Irons"), "Where was Jeremy Irons born?");
    }

    #[test]
    fn asks_for_the_object_in_place_only_where_the_slot_ends_the_predicate() {
        let b = phrasing("/people/person/place_of_birth").unwrap();
        assert_eq!(b.asking_predicate(0, "which location").as_deref(), Some("was born in which location"));
        let p = phrasing("/people/person/profession").unwrap();
        assert_eq!(p.asking_predicate(0, "which profession").as_deref(), Some("works as which profession"));
        let g = phrasing("/film/film/genre").unwrap();
        assert_eq!(g.asking_predicate(0, "which genre"), None, "is a film of the {{o}} genre");
        assert_eq!(g.asking_predicates(), vec![2]);
        let i = phrasing("/music/group_member/membership./music/group_membership/role").unwrap();
        assert_eq!(i.asking_predicate(0, "which instrument").as_deref(), Some("plays which instrument"));
        assert_eq!(class_words("award.award_category"), "award category");
        assert_eq!(class_words("language.human_language"), "language");
    }

    #[test]
    fn untemplated_relations_fall_back_to_their_last_segment() {
        assert_eq!(relation_words("/film/film/estimated_budget./measurement_unit/dated_money_value/currency"), "currency");
        assert_eq!(relation_words("/people/person/place_of_birth"), "birthplace");
    }

    #[test]
    fn every_template_has_several_predicates_with_an_object() {
        for p in PHRASINGS {
            assert!(p.predicates.len() >= 2, "{}", p.relation);
            for pred in p.predicates {
                assert!(pred.contains("{o}") || pred.contains("{l}") || pred.contains("{a}"), "{pred}");
            }
            assert!(p.question.contains("{s}"), "{}", p.relation);
        }
    }
}
