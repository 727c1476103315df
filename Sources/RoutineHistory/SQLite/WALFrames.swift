import CSQLite

/// How many frames the WAL holds after a connection's last commit, as SQLite tells a WAL hook.
/// The hook replaces SQLite's own, which is what checkpoints at 1,000 frames, so it does that
/// too.
final class WALFrames {
    private(set) var count = 0

    func install(on queue: DatabaseQueue) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        queue.inDatabase { db in
            _ = sqlite3_wal_hook(
                db.sqliteConnection,
                { context, connection, schema, frames in
                    Unmanaged<WALFrames>.fromOpaque(context!).takeUnretainedValue().count = Int(frames)
                    if frames >= 1000 { _ = sqlite3_wal_checkpoint(connection, schema) }
                    return SQLITE_OK
                }, context)
        }
    }

    /// Takes the hook away, before this is gone: the connection may outlive it for a moment.
    func uninstall(from queue: DatabaseQueue) {
        queue.inDatabase { db in _ = sqlite3_wal_hook(db.sqliteConnection, nil, nil) }
    }
}
