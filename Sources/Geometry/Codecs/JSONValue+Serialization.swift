extension JSONValue {
    /// The document on one line, no spaces: `{"a":[1,2]}`.
    public var compact: String {
        var output = ""
        write(to: &output, indent: nil, depth: 0)
        return output
    }

    /// The document indented by two spaces, `"key": value`, empty containers as `[]` / `{}`.
    /// No trailing newline.
    public var prettyPrinted: String {
        var output = ""
        write(to: &output, indent: "  ", depth: 0)
        return output
    }

    private func write(to output: inout String, indent: String?, depth: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .number(let value): output += Self.format(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, to: &output,
                           indent: indent, depth: depth) { index, output in
                elements[index].write(to: &output, indent: indent, depth: depth + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, to: &output,
                           indent: indent, depth: depth) { index, output in
                Self.writeString(members[index].key, to: &output)
                output += indent == nil ? ":" : ": "
                members[index].value.write(to: &output, indent: indent, depth: depth + 1)
            }
        }
    }

    private func writeContainer(open: String, close: String, count: Int, to output: inout String,
                                indent: String?, depth: Int,
                                element: (Int, inout String) -> Void) {
        output += open
        guard count > 0 else {
            output += close
            return
        }
        for index in 0..<count {
            if index > 0 { output += "," }
            if let indent { output += "\n" + String(repeating: indent, count: depth + 1) }
            element(index, &output)
        }
        if let indent { output += "\n" + String(repeating: indent, count: depth) }
        output += close
    }

    /// The shortest text that reads back as the same Double; integral values without a
    /// fraction (`3`, not `3.0`), as JavaScript writes them. NaN and infinities become null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            // Also turns -0.0 into 0.
            return String(Int64(value))
        }
        // Swift's description is the shortest round-trip form, and its exponent form
        // ("1e-07", "1e+20") is valid JSON.
        return value.description
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; everything
    /// else, including non-ASCII text, written as UTF-8.
    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            // U+2028 and U+2029 are valid JSON but end lines in JavaScript; escape them too.
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                output += "\\u" + hex4(scalar.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
