//! A private PostgreSQL schema per test, when `SCRAPE_AGENT_TEST_POSTGRES_URL` is set.

use sqlx::Connection;
use sqlx::postgres::PgConnection;

/// The variable naming the PostgreSQL server tests may use.
pub const ENV: &str = "SCRAPE_AGENT_TEST_POSTGRES_URL";

/// A schema of its own on the test server; `url` points the app at it.
pub struct PgSchema {
    /// A `postgres://` URL whose connections use only this schema.
    pub url: String,
    base: String,
    name: String,
}

impl PgSchema {
    /// A fresh schema, or `None` (after saying so) when no server is configured.
    pub async fn create(test: &str) -> Option<Self> {
        let Ok(base) = std::env::var(ENV) else {
            super::skipped(
                test,
                &format!(
                    "{ENV} is not set (.ci/run sets it when PostgreSQL answers on 127.0.0.1:5432)"
                ),
            );
            return None;
        };
        let name = format!("t_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::connect(&base)
            .await
            .unwrap_or_else(|e| panic!("{ENV}={base} does not answer: {e}"));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {name}")))
            .execute(&mut conn)
            .await
            .expect("create schema");
        let separator = if base.contains('?') { '&' } else { '?' };
        // Every connection of the app starts with this schema first on its search path, so
        // tables and the migrations table are private to the test.
        let url = format!("{base}{separator}options=-c%20search_path%3D{name}");
        Some(Self { url, base, name })
    }

    /// Drops the schema and everything in it.
    pub async fn drop_schema(self) {
        if let Ok(mut conn) = PgConnection::connect(&self.base).await {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP SCHEMA {} CASCADE",
                self.name
            )))
            .execute(&mut conn)
            .await;
        }
    }
}
