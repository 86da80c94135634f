/// The one table of the field names fxbatch recognises without an option, per field and language (fxbatch issue
/// 32): a CSV header's names, a sheet's header row, a JSON record's members, an XML record's fields.
///
/// Names are compared after ``FieldMapping/normalizedName(_:)``: without case, accents, spaces, `_`, `-` and `.`
/// (`Währung`, `WÄHRUNG` and `Wahrung` are one name; the spelling `Waehrung` is an entry of its own). A
/// field takes the first name of its list that a record has, English first, then the other languages in the
/// order of ``languages``. Documented, name for name, in `docs/fields-and-amounts.md` ("Finding the fields"),
/// which a test keeps in step with this table.
///
/// Left out on purpose: `Valuta` (a currency in Italian and Dutch exports, but a value date in German bank
/// exports) and `Data` (a date in Italian and Portuguese, but a JSON API's payload member). A column of either
/// is refused with the option to give rather than read as the wrong field (``FieldMapping/likelyCurrencyField``,
/// ``FieldMapping/likelyDateField``). Nor are the bare words for a destination (`Destino`, `Cible`, `Doel`): in
/// a travel or shipping export they name a place, and `--to` would refuse to pass over such a "currency" field.
enum HeaderNames {
  /// The languages of the table, in order of preference.
  static let languages = ["English", "German", "French", "Spanish", "Italian", "Dutch", "Portuguese"]

  /// Per field, per language (in the order of ``languages``), its names as people write them.
  static let table: [FieldMapping.Role: [[String]]] = [
    .amount: [
      [
        "amount", "amt", "value", "sum", "total", "price", "net_amount", "gross_amount", "amount_original",
      ],
      ["Betrag", "Umsatz"],
      ["Montant", "Somme"],
      ["Importe", "Monto"],
      ["Importo", "Ammontare"],
      ["Bedrag"],
      ["Valor", "Montante", "Quantia"],
    ],
    .from: [
      [
        "from", "from_currency", "source_currency", "base_currency", "currency", "ccy", "cur", "currency_code",
        "original_currency", "from_ccy", "base", "source", "ccy_code", "curr", "curr_code", "currency_iso",
        "iso_currency", "iso_currency_code",
      ],
      ["Währung", "Waehrung", "Ausgangswährung", "Quellwährung"],
      ["Devise", "Monnaie", "Devise source", "Devise d'origine"],
      ["Moneda", "Divisa", "Moneda origen", "Moneda de origen"],
      ["Valuta di origine", "Valuta originale"],
      ["Munteenheid", "Bronvaluta"],
      ["Moeda", "Moeda de origem"],
    ],
    .to: [
      [
        "to", "to_currency", "target_currency", "quote_currency", "convert_to", "destination_currency", "to_ccy",
        "target_ccy", "target", "quote",
      ],
      ["Zielwährung", "Ziel"],
      ["Devise cible", "Devise de destination"],
      ["Moneda destino", "Moneda de destino", "Divisa destino"],
      ["Valuta di destinazione", "Valuta destinazione"],
      ["Doelvaluta"],
      ["Moeda de destino", "Moeda destino"],
    ],
    .date: [
      [
        "date", "value_date", "rate_date", "transaction_date", "booking_date", "posting_date", "invoice_date",
        "payment_date", "txn_date", "day", "timestamp", "created_at", "issue_date", "document_date", "order_date",
        "trade_date", "settlement_date", "sale_date", "purchase_date", "billing_date", "entry_date", "trans_date",
      ],
      ["Buchungsdatum", "Valutadatum", "Rechnungsdatum", "Datum", "Buchungstag"],
      ["Date opération", "Date de valeur", "Date valeur", "Date comptable"],
      ["Fecha", "Fecha valor", "Fecha operación", "Fecha de operación"],
      ["Data operazione", "Data valuta", "Data contabile"],
      ["Boekdatum", "Transactiedatum"],
      ["Data de lançamento", "Data do movimento", "Data valor"],
    ],
  ]

  /// Per field, its names normalized (``FieldMapping/normalizedName(_:)``) in order of preference, each once.
  static let normalized: [FieldMapping.Role: [String]] = table.mapValues { languages in
    var seen: Set<String> = []
    return languages.joined().map(FieldMapping.normalizedName).filter { seen.insert($0).inserted }
  }
}
