/// One record as written in a JSON document or a JSON Lines file: its bytes and where it starts.
public struct JSONRecordText: Sendable {
  /// The record's bytes: an element of the records array exactly as written, or a JSON Lines line without
  /// its line end.
  public let bytes: [UInt8]
  /// 1-based line and byte column of its first byte.
  public let line: Int
  public let column: Int

  public init(bytes: [UInt8], line: Int, column: Int) {
    self.bytes = bytes
    self.line = line
    self.column = column
  }

  /// The record parsed: its members when it is an object, else why it is not a record.
  ///
  /// - Parameter maximumValues: the most values the record may hold at any depth (more is an `invalid_record`
  ///   error, so that memory stays bounded: ``RecordLimits/maxFields``).
  /// - Returns: the members in document order (duplicates included), or the `invalid_record` error.
  public func members(maximumValues: Int = RecordLimits.standard.maxFields) -> Result<
    [(key: String, value: JSONValue)], RowError
  > {
    let value: JSONValue
    do { value = try JSONParser.parse(bytes, maximumValues: maximumValues, startsFile: false) } catch {
      return .failure(RowError(.invalidRecord, "not valid JSON: \(error.message) (\(position(of: error)))"))
    }
    guard case .object(let members) = value else {
      return .failure(RowError(.invalidRecord, "\(JSONRecordText.kind(of: value)) is not a record object"))
    }
    return .success(members)
  }

  /// The file position of a parse error inside the record: `line L, column C`.
  public func position(of error: JSONParseError) -> String {
    let (line, column) = filePosition(of: error)
    return "line \(line), column \(column)"
  }

  /// The file line and column of a parse error inside the record.
  public func filePosition(of error: JSONParseError) -> (line: Int, column: Int) {
    error.line == 1 ? (line, column + error.column - 1) : (line + error.line - 1, error.column)
  }

  /// A JSON value's kind for a message: `a number`, `a string`, `true`, `null`, `an array`, `an object`.
  public static func kind(of value: JSONValue) -> String {
    switch value {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    }
  }
}
