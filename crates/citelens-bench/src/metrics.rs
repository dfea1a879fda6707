//! The figures the papers print: per-class F1, macro- and micro-F1, confusion matrices.

use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Serialize)]
pub struct ClassScore {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub support: usize,
}

#[derive(Debug, Clone)]
pub struct Scores {
    pub labels: Vec<&'static str>,
    /// confusion[gold][predicted]
    pub confusion: Vec<Vec<usize>>,
}

fn pct(x: f64) -> f64 {
    (x * 10000.0).round() / 100.0
}

impl Scores {
    pub fn new(labels: Vec<&'static str>, pairs: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let mut confusion = vec![vec![0; labels.len()]; labels.len()];
        for (g, p) in pairs {
            confusion[g][p] += 1;
        }
        Scores { labels, confusion }
    }

    pub fn n(&self) -> usize {
        self.confusion.iter().flatten().sum()
    }

    /// Per-class precision, recall, F1 (percentages).
    pub fn class(&self, k: usize) -> ClassScore {
        let tp = self.confusion[k][k] as f64;
        let predicted: usize = self.confusion.iter().map(|row| row[k]).sum();
        let support: usize = self.confusion[k].iter().sum();
        let p = if predicted > 0 { tp / predicted as f64 } else { 0.0 };
        let r = if support > 0 { tp / support as f64 } else { 0.0 };
        let f1 = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
        ClassScore { precision: pct(p), recall: pct(r), f1: pct(f1), support }
    }

    /// Mean F1 over classes that occur in the gold labels.
    pub fn macro_f1(&self) -> f64 {
        let present: Vec<usize> = (0..self.labels.len()).filter(|&k| self.confusion[k].iter().sum::<usize>() > 0).collect();
        if present.is_empty() {
            return 0.0;
        }
        (present.iter().map(|&k| self.class(k).f1).sum::<f64>() / present.len() as f64 * 100.0).round() / 100.0
    }

    /// Micro-F1: for one label per example this is accuracy.
    pub fn micro_f1(&self) -> f64 {
        let n = self.n();
        if n == 0 {
            return 0.0;
        }
        pct((0..self.labels.len()).map(|k| self.confusion[k][k]).sum::<usize>() as f64 / n as f64)
    }

    pub fn per_class_json(&self) -> Value {
        Value::Object(
            self.labels.iter().enumerate().map(|(k, l)| (l.to_string(), serde_json::to_value(self.class(k)).expect("json"))).collect(),
        )
    }

    pub fn confusion_json(&self) -> Value {
        let mut m = Map::new();
        for (g, row) in self.confusion.iter().enumerate() {
            m.insert(
                self.labels[g].to_string(),
                Value::Object(self.labels.iter().zip(row).map(|(l, c)| (l.to_string(), Value::from(*c))).collect()),
            );
        }
        Value::Object(m)
    }

    /// The table as text: per-class rows, then the confusion matrix.
    pub fn table(&self) -> String {
        let mut s = format!("{:<22} {:>9} {:>9} {:>9} {:>8}\n", "class", "precision", "recall", "F1", "support");
        for k in 0..self.labels.len() {
            let c = self.class(k);
            s += &format!("{:<22} {:>9.2} {:>9.2} {:>9.2} {:>8}\n", self.labels[k], c.precision, c.recall, c.f1, c.support);
        }
        s += &format!("macro-F1 {:.2}   micro-F1 {:.2}   n {}\n", self.macro_f1(), self.micro_f1(), self.n());
        s += &format!("confusion (rows gold, columns predicted)\n{:<22}", "");
        for l in &self.labels {
            s += &format!(" {:>12}", short(l));
        }
        s += "\n";
        for (g, row) in self.confusion.iter().enumerate() {
            s += &format!("{:<22}", self.labels[g]);
            for c in row {
                s += &format!(" {c:>12}");
            }
            s += "\n";
        }
        s
    }
}

fn short(l: &str) -> String {
    l.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_matches_hand_computation() {
        // gold 0 predicted 0 twice, gold 0 predicted 1 once, gold 1 predicted 1 once.
        let s = Scores::new(vec!["a", "b"], [(0, 0), (0, 0), (0, 1), (1, 1)]);
        let a = s.class(0);
        assert_eq!((a.precision, a.recall), (100.0, 66.67));
        assert_eq!(a.f1, 80.0);
        assert_eq!(s.class(1).f1, 66.67);
        assert_eq!(s.micro_f1(), 75.0);
        assert!((s.macro_f1() - 73.34).abs() < 0.011);
    }
}
