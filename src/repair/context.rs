//! The repair context, at the bottom of the engine (like `error`): which
//! repairs a call allows ([`Allow`], [`RepairKind`]), what it carries while
//! it works ([`Ctx`]) and what it reports ([`Repair`], [`Repaired`]). It
//! imports nothing of the crate, so every matcher and entry point can take a
//! [`Ctx`] without standing above the repairs themselves.

/// What a repair forgave. The codes are those of the JS `repairKinds`; the
/// first two are also the names of the edit-block strategies that forgive
/// the same thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum RepairKind {
    /// Lines equal but for trailing spaces and tabs.
    TrailingWs,
    /// Lines equal but for Unicode dashes, quotes and spaces (Codex's list) against ASCII.
    Unicode,
    /// Lines whose indentation is written with spaces where the input has tabs (or the reverse).
    Tabs,
    /// Lines equal but for their indentation.
    Indent,
    /// Line-number prefixes (`12 | `, `12:`, `12\t`, `12→`) copied from a read tool's output.
    LineNumbers,
    /// A unified-diff hunk header (`@@ -12,7 +12,8 @@`) read as a bare `@@`.
    HunkHeader,
    /// The patch's envelope: a missing `*** Begin Patch` / `*** End Patch`, a
    /// Markdown fence or a shell wrapper around it.
    Envelope,
    /// The change is already in the input: nothing to do.
    AlreadyApplied,
    /// Edit blocks over files: a file name written as the model remembered
    /// it (`file3.py` for `dir/file3.py`, `file1_py`, a Windows path) taken as
    /// the one file of the map it can only mean.
    FileName,
}

impl RepairKind {
    /// Every kind, in a fixed order (exported to JS as `repairKinds`).
    pub const ALL: &'static [RepairKind] = &[
        RepairKind::TrailingWs,
        RepairKind::Unicode,
        RepairKind::Tabs,
        RepairKind::Indent,
        RepairKind::LineNumbers,
        RepairKind::HunkHeader,
        RepairKind::Envelope,
        RepairKind::AlreadyApplied,
        RepairKind::FileName,
    ];

    /// The stable code, e.g. `"trailing-ws"`.
    pub fn code(self) -> &'static str {
        match self {
            RepairKind::TrailingWs => "trailing-ws",
            RepairKind::Unicode => "unicode",
            RepairKind::Tabs => "tabs",
            RepairKind::Indent => "indent",
            RepairKind::LineNumbers => "line-numbers",
            RepairKind::HunkHeader => "hunk-header",
            RepairKind::Envelope => "envelope",
            RepairKind::AlreadyApplied => "already-applied",
            RepairKind::FileName => "file-name",
        }
    }

    /// The kind named `code` (`trailing-ws`, `indent`, …), if there is one.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.code() == code)
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// Which repairs are allowed: none (plain Strict), all, or a chosen set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Allow(u32);

impl Allow {
    /// The npm binding takes a mode and the allowed repairs as one number,
    /// `mode | bits << CODE_SHIFT` (the mode's position in [`Mode::ALL`](crate::Mode::ALL) in the low bits).
    pub const CODE_SHIFT: u32 = 8;

    /// No repair: plain Strict.
    pub const NONE: Allow = Allow(0);
    /// Every repair kind.
    pub const ALL: Allow = Allow((1 << 9) - 1);

    /// Only these kinds.
    pub fn only(kinds: &[RepairKind]) -> Self {
        Allow(kinds.iter().fold(0, |bits, k| bits | k.bit()))
    }

    /// Whether `kind` is allowed.
    pub fn has(self, kind: RepairKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether no kind is allowed.
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// As a bit set (bit `k` for the `k`-th kind of [`RepairKind::ALL`]).
    pub fn bits(self) -> u32 {
        self.0
    }

    /// The kinds whose bits are set (bit `i` is `RepairKind::ALL[i]`).
    pub fn from_bits(bits: u32) -> Self {
        Allow(bits & Allow::ALL.0)
    }
}

/// One repair that was made: what, where, and in words what was forgiven.
/// Serialized as the JS `Repair`: `{ kind, message, diffLine?, inputLine?,
/// path?, operation?, diff? }`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Repair {
    /// What was forgiven.
    pub kind: RepairKind,
    /// Written for the model: what it got wrong and what was done instead.
    pub message: String,
    /// 1-based line in the diff (or in the patch as given).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diff_line: Option<usize>,
    /// 1-based line of the input.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub input_line: Option<usize>,
    /// The file, in a patch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// 0-based operation of the patch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub operation: Option<usize>,
    /// 0-based diff of a batch.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub diff: Option<usize>,
}

impl Repair {
    pub(crate) fn new(kind: RepairKind, message: String, diff_line: Option<usize>, input_line: Option<usize>) -> Self {
        Repair { kind, message, diff_line, input_line, path: None, operation: None, diff: None }
    }

    /// One line for a model or a log: `repaired[kind] (diff line 3, input line 12): message`.
    pub fn line(&self) -> String {
        let mut at = Vec::new();
        if let Some(p) = &self.path {
            at.push(p.clone());
        }
        if let Some(d) = self.diff {
            at.push(format!("diff {}", d + 1));
        }
        if let Some(l) = self.diff_line {
            at.push(format!("{} line {l}", if self.path.is_some() { "patch" } else { "diff" }));
        }
        if let Some(l) = self.input_line {
            at.push(format!("input line {l}"));
        }
        let at = if at.is_empty() { String::new() } else { format!(" ({})", at.join(", ")) };
        format!("repaired[{}]{at}: {}", self.kind.code(), self.message)
    }
}

/// What a matcher carries while it works: the repairs it may make, and
/// those it made.
#[derive(Clone, Debug, Default)]
pub struct Ctx {
    /// The kinds this call may repair.
    pub allow: Allow,
    /// The repairs made so far, in order.
    pub repairs: Vec<Repair>,
}

impl Ctx {
    /// A context that allows `allow` and has repaired nothing yet.
    pub fn new(allow: Allow) -> Self {
        Ctx { allow, repairs: Vec::new() }
    }

    pub(crate) fn allows(&self, kind: RepairKind) -> bool {
        self.allow.has(kind)
    }

    pub(crate) fn push(&mut self, repair: Repair) {
        self.repairs.push(repair);
    }
}

/// A result and the repairs that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct Repaired<T> {
    /// The result.
    pub value: T,
    /// What was forgiven to get it.
    pub repairs: Vec<Repair>,
}
