#if canImport(Glibc)
  import Glibc
#endif

extension BatchJob {
  /// Opens a file and reads its header.
  private func openFile(_ readPath: String, displayPath: String, delimiter: UInt8?) throws(FileError) -> (
    reader: CSVReader, leadingBlankLines: [CSVRecord], header: CSVRecord
  ) {
    do {
      let reader = try CSVReader(path: readPath, delimiter: delimiter)
      var blank: [CSVRecord] = []
      while let record = try reader.next() {
        if !record.isBlank { return (reader, blank, record) }
        blank.append(record)
      }
      throw CSVError.missingHeader
    } catch let error as CSVError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
  }

  /// Pass 1 over a CSV file: its fields, the decimal mark of its amounts, and its distinct rate keys.
  ///
  /// Records go through ``CSVFieldDecoder`` (no copy, cached currencies and dates); one it cannot decide is
  /// copied and read by the general rules.
  func scanCSVFile(displayPath: String, readPath: String, outputPath: String?) throws(FileError) -> (
    FileScan, RateKeyIndex
  ) {
    let (reader, _, header) = try openFile(readPath, displayPath: displayPath, delimiter: options.delimiter)
    let headerFields = (0..<header.fieldCount).map { header.field($0).trimmingWhitespace }
    if Self.isAnnotated(header: headerFields) {
      throw FileError(
        path: displayPath, line: header.line, column: 1,
        message:
          "the file is already annotated by fxbatch (its header has the fx_* fields); converting it again would repeat them",
        hint: "convert the original file instead")
    }
    let mapping: FieldMapping
    do {
      mapping = try FieldMapping.resolve(
        header: headerFields, names: options.fieldNames, fixedFrom: options.fixedFrom != nil, fixedTo: options.fixedTo != nil)
    } catch {
      throw FileError(path: displayPath, line: header.line, column: 1, message: error.description)
    }
    let normalizer = RecordNormalizer(
      mapping: mapping, headerFieldCount: header.fieldCount, fixedFrom: options.fixedFrom, fixedTo: options.fixedTo,
      dateFormat: options.dateFormat, defaultDay: defaultDay, currencies: options.currencies)
    var decoder = CSVFieldDecoder(normalizer: normalizer)
    var keys = RateKeyIndex()
    var inference = DecimalMarkInference()
    let inferMark = options.decimalMark == nil
    let useFastPath = options.fastPath
    // Under a local table, records are converted as they come in pass 2: no keys to collect.
    let collectKeys = convertingTable == nil
    do {
      while let _ = try reader.withNextRecord({ view in
        if view.isBlank { return }
        if inferMark {
          if useFastPath, let evidence = CSVFieldDecoder.evidence(view.field(mapping.amount)) {
            inference.add(evidence)
          } else if let amount = normalizer.amountText(of: view.record) {
            inference.add(amount)
          }
        }
        guard collectKeys else { return }
        if useFastPath, let found = decoder.key(of: view),
          let packed = RateKeyIndex.pack(base: found.base, quote: found.quote, day: found.day)
        {
          keys.insert(packed)
        } else if case .success(let found) = normalizer.rateKey(of: view.record), let packed = RateKeyIndex.pack(found.key) {
          keys.insert(packed)
        }
      }) {}
    } catch let error as CSVError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? inference.decide(delimiter: reader.delimiter)
    let scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv, delimiter: reader.delimiter,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer,
      fields: Dictionary(
        uniqueKeysWithValues: [("amount", mapping.amount), ("from", mapping.from), ("to", mapping.to), ("date", mapping.date)]
          .compactMap { role, index in index.map { (role, headerFields[$0]) } }))
    return (scan, keys)
  }

  /// Pass 2 over a CSV file.
  ///
  /// A record whose currencies, date and plain amount ``CSVFieldDecoder`` reads, and whose key has a rate, is
  /// converted and written from bytes (its raw bytes, then the annotation fields); any other record takes the
  /// general path (``outcome(of:normalizer:parser:quotes:withoutDate:ledger:)`` and ``CSVAnnotatingWriter``),
  /// which gives the same output.
  func convertCSV(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError) -> (
    RunReport.Counts, Int, ReconciliationLedger
  ) {
    let (reader, leadingBlankLines, header) = try openFile(
      scan.readPath, displayPath: scan.displayPath, delimiter: scan.delimiter)
    let (atomicFile, sink) = try openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let writer = CSVAnnotatingWriter(sink: sink, delimiter: scan.delimiter, headerFieldCount: header.fieldCount)
    let parser = AmountParser(decimalMark: scan.decimalMark, currencies: options.currencies)
    var counts = RunReport.Counts()
    var withoutDate = 0
    var ledger = ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies)
    var fastPass: CSVFastPass? = nil
    if let table = convertingTable {
      let converter = TableConverter(table: table, maxStaleness: options.maxStaleness, rounding: options.rounding)
      // The fast path writes `.` decimal marks and the table's texts unquoted.
      if options.outputDecimalMark == .point, converter.textsAreSafeUnquoted {
        fastPass = CSVFastPass(
          decoder: CSVFieldDecoder(normalizer: scan.normalizer), converter: converter, delimiter: scan.delimiter,
          decimalMark: scan.decimalMark?.byte, amountField: scan.normalizer.mapping?.amount)
      }
    }
    /// Writes one record through the general path.
    func writeGeneral(_ view: CSVRecordView) throws {
      if view.isBlank {
        try sink.write(UnsafeBufferPointer(rebasing: view.bytes[view.length...]))
        return
      }
      let record = view.record
      let outcome = self.outcome(
        of: scan.normalizer.fields(of: record), normalizer: scan.normalizer, parser: parser, quotes: quotes,
        withoutDate: &withoutDate, ledger: &ledger)
      counts.add(outcome)
      try writer.write(record, cells: outcome.cells(decimalMark: options.outputDecimalMark))
    }
    do {
      try writer.writeHeader(header, byteOrderMark: reader.hasByteOrderMark, leadingBlankLines: leadingBlankLines)
      if var fastPass {  // not optional in the loop: force-unwrapping it per record copied it
        while let _ = try reader.withNextRecord({ view throws in
          if try fastPass.convert(view, sink: sink) { return }
          try fastPass.flush(to: sink)
          try writeGeneral(view)
        }) {}
        try fastPass.flush(to: sink)
        counts.add(fastPass.counts)
        withoutDate += fastPass.withoutDate
        fastPass.converter.flush(into: &ledger)
      } else {
        while let _ = try reader.withNextRecord({ try writeGeneral($0) }) {}
      }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch let error as CSVError {
      throw FileError(path: scan.displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
    return (counts, withoutDate, ledger)
  }
}
