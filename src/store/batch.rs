//! The batch a command's sources are recorded under: when it started, what
//! ran, and the git commit it saw.

use std::path::{Path, PathBuf};

use super::now_rfc3339;

/// The batch the current command's sources are recorded under; created in
/// the database with the first source that is new.
#[derive(Debug, Clone)]
pub struct Batch {
    pub command: String,
    git_commit: GitCommit,
    pub started_at: String,
    pub(super) id: Option<i64>,
}

/// The commit a batch records: known, or asked of git only when the batch
/// row is written (a command that adds nothing runs no git).
#[derive(Debug, Clone)]
enum GitCommit {
    Known(Option<String>),
    HeadOf(PathBuf),
}

impl Batch {
    pub fn new(command: String, git_commit: Option<String>) -> Self {
        Batch { command, git_commit: GitCommit::Known(git_commit), started_at: now_rfc3339(), id: None }
    }

    /// A batch that records the HEAD commit of the repository at `root`,
    /// looked up when the first source is written.
    pub fn at_head_of(command: String, root: &Path) -> Self {
        Batch { command, git_commit: GitCommit::HeadOf(root.to_path_buf()), started_at: now_rfc3339(), id: None }
    }

    pub(super) fn git_commit(&mut self) -> Option<String> {
        if let GitCommit::HeadOf(root) = &self.git_commit {
            self.git_commit = GitCommit::Known(crate::ingest::git_head(root));
        }
        match &self.git_commit {
            GitCommit::Known(c) => c.clone(),
            GitCommit::HeadOf(_) => None,
        }
    }
}
