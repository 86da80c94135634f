extension Int {
  /// The number with its digits grouped by threes with commas (`200,000`), as limits are written in messages.
  var groupedText: String {
    var text = String(self)
    var position = text.count - 3
    while position > (self < 0 ? 1 : 0) {
      text.insert(",", at: text.index(text.startIndex, offsetBy: position))
      position -= 3
    }
    return text
  }
}
