/// What the studio says about phones and their pairing, in one place: the refusals the
/// pairing page shows and the lines `routine studio devices` prints.
enum PairingMessages {
    static let wrongCode = "this pairing address is wrong, used or expired; ask the desk for a new one ('Pair a phone')"
    static let throttled = "too many wrong pairing codes; wait a minute, then open a new pairing address"
    static let badName = "a phone's name is 1 to 40 characters, none of them a control character"
    static func nameTaken(_ name: String) -> String { "a phone named '\(name)' is already paired; choose another name" }
    static let notPairing = "this studio was not started with '--allow-host NAME --pair': it pairs no phone"
    static let deskOnly = "editing the routine stays on the desk; a phone logs, runs and corrects days"
    static let revoked = "this phone's pairing was ended on the desk ('routine studio devices --revoke'); pair it again to use it"
    static func cannotWrite(_ path: String, _ reason: String) -> String { "cannot write the paired phones to '\(path)': \(reason)" }
    static func unknownDevice(_ name: String) -> String { "no paired phone is named '\(name)'; 'routine studio devices' lists them" }
    static let noStateFolder = "neither XDG_STATE_HOME nor HOME is set: there is no folder for the paired phones"
}
