//! How a merge writes its conflicts (the bottom of `merge/`: the diff and
//! the regions name it, the facade re-exports it).

/// How conflicts are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Style {
    /// Ours and theirs, narrowed to the lines that differ (git's default,
    /// `merge.conflictStyle=merge`).
    #[default]
    Merge,
    /// Ours, the base and theirs, whole (`--diff3`).
    Diff3,
    /// Ours, the base and theirs, without the lines both sides begin and end
    /// with (`--zdiff3`).
    Zdiff3,
}

impl Style {
    /// The style named `name`: `merge`, `diff3` or `zdiff3`.
    pub fn from_name(name: &str) -> Option<Style> {
        match name {
            "merge" => Some(Style::Merge),
            "diff3" => Some(Style::Diff3),
            "zdiff3" => Some(Style::Zdiff3),
            _ => None,
        }
    }
}
