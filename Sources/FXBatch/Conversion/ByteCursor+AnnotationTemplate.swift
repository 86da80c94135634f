// Copying a template piece is declared with the template: Bytes/ sits below Conversion/ (LayeringTests).

extension ByteCursor {
  /// Copies piece `index` of a template (``AnnotationTemplate/bytes``, viewed as `bytes`).
  @inline(__always)
  mutating func putPiece(_ index: Int, of template: AnnotationTemplate, from bytes: ByteView) {
    let (start, count) = template.piece(index)
    putShort(bytes, from: start, count: count)
  }
}
