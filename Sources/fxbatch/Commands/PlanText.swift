import FXBatch

/// The text `convert --plan` prints: the distinct rate keys and the requests that would answer them.
enum PlanText {
  static func text(report: RunReport, plan: RatePlan?, source: RateSourceInfo) -> String {
    var lines: [String] = []
    let files = report.files.filter { $0.fileError == nil && $0.skipped == nil }.count
    var source = source
    if let chain = report.chain {
      // The chain's local tables, then the first network link, whose plan follows (``BatchJob/plan()``).
      lines.append("chain: each key from the first of \(source.publisher) with a rate for it")
      for (index, use) in chain.enumerated() {
        if index == chain.count - 1, plan != nil {
          lines.append("  \(use.name): asked the \(use.asked) keys the sources before it have no rate for (planned below)")
          source = RateSourceInfo(identifier: use.source, publisher: use.name, description: use.name)
        } else {
          lines.append("  \(use.name): \(use.answered) of \(use.asked) keys answered without the network, \(use.failed) failed")
        }
      }
    }
    guard let plan else {
      lines.append("plan: \(files) file\(files == 1 ? "" : "s") readable; rates from \(source.description): no requests needed")
      return lines.joined(separator: "\n") + "\n"
    }
    let local = plan.localAnswers.values
    let same = local.filter { (try? $0.get()) != nil }.count
    lines.append("plan: \(files) file\(files == 1 ? "" : "s"), \(plan.keyCount) distinct (base, quote, day) keys")
    lines.append(
      "  answered without the network: \(local.count) (same currency or cached \(same), refused before asking \(local.count - same))"
    )
    lines.append("  requests to \(source.description): \(plan.requests.count)")
    for request in plan.requests {
      lines.append("    GET \(request.url.absoluteString)  (\(request.keys.count) key\(request.keys.count == 1 ? "" : "s"))")
    }
    lines.append("  cache hits: \(plan.cacheHits)")
    return lines.joined(separator: "\n") + "\n"
  }
}
