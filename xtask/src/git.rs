//! The one git helper of the tasks, and the one temporary worktree: `bench --vs` and
//! `match --vs` build another revision of the engine in a [`Worktree`].

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::Result;

/// Runs git in `repo` and returns its stdout (an error names the command and git's stderr).
pub fn git(repo: &Path, args: &[&str]) -> Result<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim()).into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The full hash of `revision` in `repo`, if it names a commit.
pub fn commit_of(repo: &Path, revision: &str) -> Result<String> {
    let sha = git(repo, &["rev-parse", "--verify", "--quiet", &format!("{revision}^{{commit}}")])?;
    Ok(sha.trim().to_owned())
}

/// A `git worktree add --detach` checkout, removed on drop (also on early returns and
/// panics): `git worktree remove --force`, and if the folder is still there, removed by hand
/// and the worktree list pruned.
#[derive(Debug)]
pub struct Worktree {
    repo: PathBuf,
    /// The checkout's folder.
    pub path: PathBuf,
}

impl Worktree {
    /// Checks out `commit` of `repo` at `path` (which must not exist).
    pub fn add(repo: &Path, path: &Path, commit: &str) -> Result<Worktree> {
        let path_text = path.to_string_lossy().into_owned();
        git(repo, &["worktree", "add", "--detach", "--quiet", &path_text, commit])
            .map_err(|e| format!("cannot check out {commit} at {}: {e}", path.display()))?;
        Ok(Worktree { repo: repo.to_path_buf(), path: path.to_path_buf() })
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let path = self.path.to_string_lossy().into_owned();
        let removed = git(&self.repo, &["worktree", "remove", "--force", &path]).is_ok();
        if !removed && self.path.exists() {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = git(&self.repo, &["worktree", "prune"]);
        }
        if self.path.exists() {
            eprintln!(
                "warning: could not remove the temporary worktree {}; run `git worktree remove --force {}`",
                self.path.display(),
                self.path.display()
            );
        } else {
            eprintln!("xtask: removed the temporary worktree {}", self.path.display());
        }
    }
}
