import ArgumentParser
import RoutineKit

/// The command lines that status bars and shell prompts start thousands of times a day
/// (`--version`, `check FILE...`, `today ...`), read without ArgumentParser's parse.
///
/// That parse reflects on every command it passes through and instantiates generic types
/// by name, and each new type's conformances are looked up by walking every conformance
/// record linked in: about 2 ms of a 5 ms start. Here only plain forms are read (positional
/// words, known long options as `--name value` or `--name=value`, known flags, each at most
/// once); anything else, help, an error or a `validate()` that refuses, goes to
/// ArgumentParser, which reads it and reports as it always has. A test compares every
/// command read here with ArgumentParser's reading of the same words.
enum QuickCommandLine {
    /// What `arguments` (without the program's name) ask for, when it is read here.
    enum Reading {
        case version
        case check(CheckCommand)
        /// Not a `TodayCommand`: its property wrappers, each a generic type made at run time,
        /// cost more than the rest of the reading.
        case today(Today)
    }

    static func read(_ arguments: [String]) -> Reading? {
        guard let first = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        switch first {
        case "--version" where rest.isEmpty: return .version
        case "check": return check(rest).map { .check($0) }
        case "today": return today(rest).map { .today($0) }
        default: return nil
        }
    }

    static func check(_ words: ArraySlice<String>) -> CheckCommand? {
        guard let words = Words(words, options: ["format", "input-format", "color"], flags: ["strict"]), !words.positionals.isEmpty,
            let format = words.value("format", default: CheckCommand.Format.rich), let input = input(words)
        else { return nil }
        var command = CheckCommand()
        command.files = words.positionals
        command.format = format
        command.strict = words.flags.contains("strict")
        command.input = input
        return validated(command, groups: [input])
    }

    static func today(_ words: ArraySlice<String>) -> Today? {
        guard
            let words = Words(
                words, options: ["date", "format", "snooze", "click", "history", "input-format", "color"], flags: ["json", "check", "notify"]),
            let format = words.value("format", default: TodayFormat.table), let click = words.optionalValue("click", as: BarClick.self),
            let inputFormat = words.optionalValue("input-format", as: SourceFormat.self), let color = words.value("color", default: ColorChoice.auto)
        else { return nil }
        let today = Today(
            files: words.positionals, date: words["date"], json: words.flags.contains("json"), format: format,
            check: words.flags.contains("check"), notify: words.flags.contains("notify"), snooze: words["snooze"], click: click,
            // Never an empty name, which HistoryOptions refuses: `Words` takes no empty value.
            history: NamedHistory(history: words["history"]), input: ChosenInput(inputFormat: inputFormat, color: color))
        do {
            try today.validate()
            return today
        } catch {
            return nil
        }
    }

    private static func input(_ words: Words) -> InputOptions? {
        guard let inputFormat = words.optionalValue("input-format", as: SourceFormat.self),
            let color = words.value("color", default: ColorChoice.auto)
        else { return nil }
        var input = InputOptions()
        input.inputFormat = inputFormat
        input.color = color
        return input
    }

    /// `command` when it and its option groups accept their values; nil lets ArgumentParser
    /// report the refusal, with the usage it prints beside it.
    private static func validated<Command: ParsableCommand>(_ command: Command, groups: [any ParsableArguments]) -> Command? {
        var command = command
        do {
            for var group in groups { try group.validate() }
            try command.validate()
            return command
        } catch {
            return nil
        }
    }

    /// The words after a subcommand's name, when each is a plain one: a positional word that
    /// does not begin with '-', or a long option or flag named in `options` or `flags`, given
    /// once. A value is the rest of `--name=value` or the next word, and never empty nor
    /// beginning with '-'.
    struct Words {
        var positionals: [String] = []
        /// Names and values in the order given: a few, looked through in place.
        var options: [(name: String, value: String)] = []
        var flags: [String] = []

        init?(_ words: ArraySlice<String>, options known: [String], flags knownFlags: [String]) {
            var index = words.startIndex
            while index < words.endIndex {
                let word = words[index]
                index += 1
                guard word.hasPrefix("-") else {
                    positionals.append(word)
                    continue
                }
                guard word.hasPrefix("--") else { return nil }
                let body = word.dropFirst(2)
                let name: String
                let value: String
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    value = String(body[body.index(after: equals)...])
                    guard known.contains(name) else { return nil }
                } else {
                    name = String(body)
                    if knownFlags.contains(name) {
                        guard !flags.contains(name) else { return nil }
                        flags.append(name)
                        continue
                    }
                    guard known.contains(name), index < words.endIndex else { return nil }
                    value = words[index]
                    index += 1
                }
                guard !value.isEmpty, !value.hasPrefix("-"), self[name] == nil else { return nil }
                options.append((name, value))
            }
        }

        /// The value given to option `name`.
        subscript(name: String) -> String? {
            options.first { $0.name == name }?.value
        }

        /// The value of option `name` read as ArgumentParser reads it, or `fallback` when it
        /// is not given; nil when the value is not one of `Value`'s.
        func value<Value: ExpressibleByArgument>(_ name: String, default fallback: Value) -> Value? {
            guard let text = self[name] else { return fallback }
            return Value(argument: text)
        }

        /// The value of an option without a default: `.some(nil)` when it is not given.
        func optionalValue<Value: ExpressibleByArgument>(_ name: String, as: Value.Type) -> Value?? {
            guard let text = self[name] else { return .some(nil) }
            return Value(argument: text).map { .some($0) }
        }
    }
}
