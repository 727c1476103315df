import CSQLite

/// An SQLite result code, primary or extended (the connection asks for extended codes).
struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the extended code's low eight bits.
    var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// The code and SQLite's English for it, as `21 (bad parameter or other API misuse)`.
    var description: String { "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))" }

    // SQLite's codes by Swift names (`busy` is SQLITE_BUSY), spelled out: the extended ones
    // are C expressions, which Swift does not import.
    static let error = ResultCode(rawValue: 1)
    static let abort = ResultCode(rawValue: 4)
    static let busy = ResultCode(rawValue: 5)
    static let readOnly = ResultCode(rawValue: 8)
    static let ioError = ResultCode(rawValue: 10)
    static let corrupt = ResultCode(rawValue: 11)
    static let notFound = ResultCode(rawValue: 12)
    static let full = ResultCode(rawValue: 13)
    static let constraint = ResultCode(rawValue: 19)
    static let mismatch = ResultCode(rawValue: 20)
    static let misuse = ResultCode(rawValue: 21)
    static let notADatabase = ResultCode(rawValue: 26)
    static let ioErrorShortRead = ResultCode(rawValue: 10 | (2 << 8))
    static let constraintForeignKey = ResultCode(rawValue: 19 | (3 << 8))
}

/// An error SQLite reported, or one this layer reports in its terms.
struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The code as SQLite gave it, extended where it had one.
    let extendedResultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), when there was one.
    let message: String?
    /// The statement that failed, when one did.
    let sql: String?

    init(resultCode: ResultCode = .error, message: String? = nil, sql: String? = nil) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
    }

    /// The primary code, which the callers compare against.
    var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
