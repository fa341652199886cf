//! The batch a command's sources are recorded under: when it started, what
//! ran, and the git commit it saw.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection};

use super::now_rfc3339;

/// The batch the current command's sources are recorded under; created in
/// the database with the first source that is new.
#[derive(Debug, Clone)]
pub struct Batch {
    pub command: String,
    git_commit: GitCommit,
    pub started_at: String,
    /// Its row, once written (the transaction it was written in may
    /// still roll it back).
    id: Option<i64>,
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

    /// Its row's id, written now if it has none.
    pub(super) fn row(&mut self, conn: &Connection) -> rusqlite::Result<i64> {
        if let Some(id) = self.id {
            return Ok(id);
        }
        let git_commit = self.git_commit();
        conn.execute(
            "INSERT INTO batch (started_at, command, git_commit) VALUES (?1, ?2, ?3)",
            params![self.started_at, self.command, git_commit],
        )?;
        let id = conn.last_insert_rowid();
        self.id = Some(id);
        Ok(id)
    }

    /// True once its row is written.
    pub(super) fn is_written(&self) -> bool {
        self.id.is_some()
    }

    /// Forgets its row: the transaction that wrote it was rolled back.
    pub(super) fn forget_row(&mut self) {
        self.id = None;
    }

    fn git_commit(&mut self) -> Option<String> {
        if let GitCommit::HeadOf(root) = &self.git_commit {
            self.git_commit = GitCommit::Known(crate::ingest::git_head(root));
        }
        match &self.git_commit {
            GitCommit::Known(c) => c.clone(),
            GitCommit::HeadOf(_) => None,
        }
    }
}
