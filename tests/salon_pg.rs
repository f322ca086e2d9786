//! The salon on PostgreSQL end to end: the real binary with
//! `--db postgres://…` on a throwaway cluster ([`common_pg`]), killed
//! mid-game and started again, every acknowledged move kept, and its
//! `--export` equal to the games as played. A `--db` URL that cannot be
//! used, or a database that cannot be reached, is one line and a non-zero
//! status.

mod common_pg;
mod common_salon;

use common_pg::Cluster;
use common_salon::{TempDir, killed_mid_game};
use reversi::notation::ggf::parse_ggf;
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_postgres_killed_mid_game_keeps_every_acknowledged_move_and_exports_them() {
    let Some(cluster) = Cluster::start("salon") else {
        return;
    };
    let url = cluster.create_database("salon");
    let played = killed_mid_game(url.as_ref()).await;
    let dir = TempDir::new("pg-export");
    let out = dir.db().with_file_name("games.ggf");
    let export = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["server", "--db", &url, "--export"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(export.status.success(), "{export:?}");
    assert_eq!(
        String::from_utf8_lossy(&export.stdout).lines().next(),
        Some(format!("2 finished games written to {}", out.display()).as_str())
    );
    let records = parse_ggf(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let exported: Vec<Vec<String>> = records
        .iter()
        .map(|r| {
            assert!(r.is_finished());
            assert_eq!((r.black.as_str(), r.white.as_str()), ("ann", "bob"));
            // The result is the final position's.
            let outcome = r.game.outcome().expect("played out");
            assert_eq!(r.result.map(|o| o.winner), Some(outcome.winner));
            r.game.moves().iter().map(ToString::to_string).collect()
        })
        .collect();
    assert_eq!(exported, played);
}

/// `reversi server ARGS`: its status and what it wrote on stderr.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("server")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_database_url_that_cannot_be_used_is_one_line_and_a_failure() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let unreachable = format!("postgres://ann:secret@127.0.0.1:{port}/salon");
    for (args, says) in [
        (
            vec![
                "--db",
                "postgres://127.0.0.1/salon",
                "--listen",
                "127.0.0.1:0",
            ],
            "no user".to_string(),
        ),
        (
            vec![
                "--db",
                "postgresql://ann@127.0.0.1:5432",
                "--export",
                "x.ggf",
            ],
            "no database".to_string(),
        ),
        (
            vec!["--db", &unreachable, "--listen", "127.0.0.1:0"],
            format!("cannot connect to postgres://ann:***@127.0.0.1:{port}/salon"),
        ),
        (
            vec!["--db", &unreachable, "--export", "x.ggf"],
            "Connection refused".to_string(),
        ),
    ] {
        let (status, stderr) = refused(&args);
        assert_eq!(status, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("reversi: ") && stderr.contains(&says),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("secret"), "{stderr}");
    }
}
