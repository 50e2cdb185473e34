//! A crawl's frontier past its in-memory bound: the URLs waiting to be read, kept in the
//! `crawl_frontier` table so a large site costs the run a bounded amount of memory. The run
//! appends (in admission order) and takes the oldest rows back as it reads; every write is
//! fenced by the session's lease, as events are.

use chrono::Utc;
use sqlx::Connection;

use super::{Pool, Store, StoreError, to_i64};
use crate::events::FoundBy;

/// One URL waiting in a crawl's frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontierEntry {
    /// The URL, in its normal form.
    pub url: String,
    /// Links from the nearest seed.
    pub depth: u32,
    /// The page it was found on (none for a sitemap's).
    pub found_on: Option<String>,
    /// How it was found.
    pub found_by: FoundBy,
}

/// A `crawl_frontier` row as taken.
#[derive(Debug, sqlx::FromRow)]
struct FrontierRow {
    seq: i64,
    url: String,
    depth: i64,
    found_on: Option<String>,
    found_by: String,
}

fn found_by_name(found_by: FoundBy) -> &'static str {
    match found_by {
        FoundBy::Seed => "seed",
        FoundBy::Sitemap => "sitemap",
        FoundBy::Link => "link",
    }
}

fn found_by_of(name: &str) -> FoundBy {
    match name {
        "seed" => FoundBy::Seed,
        "sitemap" => FoundBy::Sitemap,
        _ => FoundBy::Link,
    }
}

/// Whether this instance still holds session `$id` under `$epoch`, asked inside the
/// transaction `$tx` it guards (the session row stays locked until it ends, as for events).
macro_rules! fenced {
    ($store:expr, $tx:ident, $id:expr, $epoch:expr) => {
        sqlx::query(concat!(
            "UPDATE sessions SET updated_at = $2 \
             WHERE id = $1 AND owner = $3 AND epoch = $4 AND ",
            status_is!("running")
        ))
        .bind($id)
        .bind(Utc::now())
        .bind(&*$store.instance)
        .bind($epoch)
        .execute(&mut *$tx)
        .await?
        .rows_affected()
            == 1
    };
}

impl Store {
    /// Appends `entries` to the session's stored frontier, after the rows already there
    /// (`first_seq` is the first's place in the crawl's order). A URL already waiting is kept
    /// once. Returns how many were added.
    ///
    /// # Errors
    /// [`StoreError::NotOwner`] when this instance no longer holds the session; database errors.
    pub async fn spill_frontier(
        &self,
        id: &str,
        first_seq: u64,
        entries: &[FrontierEntry],
    ) -> Result<usize, StoreError> {
        let Some(epoch) = self.epoch_of(id) else {
            return Err(StoreError::NotOwner(id.to_owned()));
        };
        let added: Option<u64> = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            if !fenced!(self, tx, id, epoch) {
                return Ok(None);
            }
            let mut added = 0;
            for (seq, entry) in (first_seq..).zip(entries) {
                added += sqlx::query(
                    "INSERT INTO crawl_frontier \
                     (session_id, url, seq, depth, found_on, found_by) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                )
                .bind(id)
                .bind(&entry.url)
                .bind(to_i64(seq))
                .bind(i64::from(entry.depth))
                .bind(entry.found_on.as_deref())
                .bind(found_by_name(entry.found_by))
                .execute(&mut *tx)
                .await?
                .rows_affected();
            }
            tx.commit().await?;
            Ok(Some(added))
        })?;
        match added {
            Some(added) => Ok(usize::try_from(added).unwrap_or(usize::MAX)),
            None => {
                self.release(id);
                Err(StoreError::NotOwner(id.to_owned()))
            }
        }
    }

    /// Takes (removes and returns) the `limit` oldest URLs of the session's stored frontier,
    /// in the crawl's order.
    ///
    /// # Errors
    /// As [`Store::spill_frontier`].
    pub async fn take_frontier(
        &self,
        id: &str,
        limit: usize,
    ) -> Result<Vec<FrontierEntry>, StoreError> {
        let Some(epoch) = self.epoch_of(id) else {
            return Err(StoreError::NotOwner(id.to_owned()));
        };
        let rows: Option<Vec<FrontierRow>> = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            if !fenced!(self, tx, id, epoch) {
                return Ok(None);
            }
            let rows = sqlx::query_as(
                "DELETE FROM crawl_frontier WHERE session_id = $1 AND seq IN \
                 (SELECT seq FROM crawl_frontier WHERE session_id = $1 ORDER BY seq LIMIT $2) \
                 RETURNING seq, url, depth, found_on, found_by",
            )
            .bind(id)
            .bind(to_i64(limit as u64))
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Some(rows))
        })?;
        let Some(mut rows) = rows else {
            self.release(id);
            return Err(StoreError::NotOwner(id.to_owned()));
        };
        // RETURNING gives no order.
        rows.sort_by_key(|row| row.seq);
        Ok(rows
            .into_iter()
            .map(|row| FrontierEntry {
                url: row.url,
                depth: u32::try_from(row.depth).unwrap_or(u32::MAX),
                found_on: row.found_on,
                found_by: found_by_of(&row.found_by),
            })
            .collect())
    }

    /// Empties the session's stored frontier: a crawl starting (or starting over after a
    /// takeover) reads its own discoveries only.
    ///
    /// # Errors
    /// As [`Store::spill_frontier`].
    pub async fn clear_frontier(&self, id: &str) -> Result<(), StoreError> {
        let Some(epoch) = self.epoch_of(id) else {
            return Err(StoreError::NotOwner(id.to_owned()));
        };
        let cleared = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            if !fenced!(self, tx, id, epoch) {
                return Ok(false);
            }
            sqlx::query("DELETE FROM crawl_frontier WHERE session_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(true)
        })?;
        if cleared {
            Ok(())
        } else {
            self.release(id);
            Err(StoreError::NotOwner(id.to_owned()))
        }
    }
}
