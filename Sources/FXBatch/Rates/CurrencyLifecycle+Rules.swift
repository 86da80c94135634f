// The changes fxbatch applies: euro changeovers with the conversion rates the EU Council fixed irrevocably, and
// redenominations with their legal ratios. Only changes whose ratio and day are certain are listed; a withdrawn
// code without a change here is refused after ISO 4217 withdrew it (see CurrencyLifecycle.route(for:)).
//
// Euro conversion rates: Council Regulation (EC) No 2866/98 of 31 December 1998 and its amendments, one per
// member state that joined later; each is units of the national currency per 1 EUR, six significant figures
// (Council Regulation (EC) No 1103/97, article 4(1)). A changeover day is the day the member state's derogation
// ended, i.e. the day the euro became its currency.
extension CurrencyLifecycle {
  static let changes: [CurrencyChange] = [
    // 1999-01-01, the eleven founding members: Council Regulation (EC) No 2866/98, article 1.
    CurrencyChange(.euroChangeover, "ATS", "EUR", "1999-01-01", "13.7603", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "BEF", "EUR", "1999-01-01", "40.3399", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "DEM", "EUR", "1999-01-01", "1.95583", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "ESP", "EUR", "1999-01-01", "166.386", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "FIM", "EUR", "1999-01-01", "5.94573", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "FRF", "EUR", "1999-01-01", "6.55957", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "IEP", "EUR", "1999-01-01", "0.787564", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "ITL", "EUR", "1999-01-01", "1936.27", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "LUF", "EUR", "1999-01-01", "40.3399", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "NLG", "EUR", "1999-01-01", "2.20371", "Council Regulation (EC) No 2866/98"),
    CurrencyChange(.euroChangeover, "PTE", "EUR", "1999-01-01", "200.482", "Council Regulation (EC) No 2866/98"),
    // The later members, each by a regulation amending No 2866/98.
    CurrencyChange(.euroChangeover, "GRD", "EUR", "2001-01-01", "340.750", "Council Regulation (EC) No 1478/2000"),
    CurrencyChange(.euroChangeover, "SIT", "EUR", "2007-01-01", "239.640", "Council Regulation (EC) No 1086/2006"),
    CurrencyChange(.euroChangeover, "CYP", "EUR", "2008-01-01", "0.585274", "Council Regulation (EC) No 1135/2007"),
    CurrencyChange(.euroChangeover, "MTL", "EUR", "2008-01-01", "0.429300", "Council Regulation (EC) No 1134/2007"),
    CurrencyChange(.euroChangeover, "SKK", "EUR", "2009-01-01", "30.1260", "Council Regulation (EC) No 694/2008"),
    CurrencyChange(.euroChangeover, "EEK", "EUR", "2011-01-01", "15.6466", "Council Regulation (EU) No 671/2010"),
    CurrencyChange(.euroChangeover, "LVL", "EUR", "2014-01-01", "0.702804", "Council Regulation (EU) No 870/2013"),
    CurrencyChange(.euroChangeover, "LTL", "EUR", "2015-01-01", "3.45280", "Council Regulation (EU) No 851/2014"),
    CurrencyChange(.euroChangeover, "HRK", "EUR", "2023-01-01", "7.53450", "Council Regulation (EU) 2022/1211"),
    // Adopted by the Council on 8 July 2025 with Council Decision (EU) 2025/1407 and Council Regulation (EU)
    // 2025/1408; the conversion rate is that of the regulation of the same day amending No 2866/98.
    CurrencyChange(
      .euroChangeover, "BGN", "EUR", "2026-01-01", "1.95583",
      "Council Regulation of 8 July 2025 amending Regulation (EC) No 2866/98"),

    // The ECU became the euro one for one: Council Regulation (EC) No 1103/97, article 2(1).
    CurrencyChange(.redenomination, "XEU", "EUR", "1999-01-01", "1", "Council Regulation (EC) No 1103/97, art. 2(1)"),

    // Redenominations: a new code, the same money, fewer units (legacy units per 1 new unit).
    CurrencyChange(.redenomination, "RUR", "RUB", "1998-01-01", "1000", "Russian Presidential Decree No. 822 of 4 August 1997"),
    CurrencyChange(.redenomination, "BGL", "BGN", "1999-07-05", "1000", "Bulgarian Law on the Denomination of the Lev, 1999"),
    CurrencyChange(.redenomination, "BYB", "BYR", "2000-01-01", "1000", "National Bank of the Republic of Belarus, 2000"),
    CurrencyChange(.redenomination, "SRG", "SRD", "2004-01-01", "1000", "Centrale Bank van Suriname, 2004"),
    CurrencyChange(.redenomination, "TRL", "TRY", "2005-01-01", "1000000", "Turkish Law No. 5083 on the Currency Unit"),
    CurrencyChange(.redenomination, "ROL", "RON", "2005-07-01", "10000", "Romanian Law No. 348/2004 on the Denomination"),
    CurrencyChange(.redenomination, "AZM", "AZN", "2006-01-01", "5000", "Central Bank of Azerbaijan, 2006"),
    CurrencyChange(.redenomination, "MZM", "MZN", "2006-07-01", "1000", "Banco de Moçambique, 2006"),
    CurrencyChange(.redenomination, "GHC", "GHS", "2007-07-01", "10000", "Ghana Currency Redenomination Act 2007 (Act 724)"),
    CurrencyChange(.redenomination, "VEB", "VEF", "2008-01-01", "1000", "Venezuelan Decreto-Ley de Reconversión Monetaria, 2007"),
    CurrencyChange(.redenomination, "TMM", "TMT", "2009-01-01", "5000", "Central Bank of Turkmenistan, 2009"),
    CurrencyChange(.redenomination, "ZMK", "ZMW", "2013-01-01", "1000", "Zambian Rebasing of the Currency Act 2012"),
    CurrencyChange(
      .redenomination, "BYR", "BYN", "2016-07-01", "10000", "Belarusian Presidential Decree No. 450 of 4 November 2015"),
    CurrencyChange(.redenomination, "MRO", "MRU", "2018-01-01", "10", "Banque Centrale de Mauritanie, 2018"),
    CurrencyChange(.redenomination, "STD", "STN", "2018-01-01", "1000", "Banco Central de São Tomé e Príncipe, 2018"),
    // On 2021-10-01 Venezuela struck six more zeros (the bolívar digital, ISO 4217 VED), but rate feeds kept
    // quoting the new bolívar as VES: a VES rate after that day is for a unit worth 1000000 of the VES this
    // change yields, so the change is not applied from that day on.
    CurrencyChange(
      .redenomination, "VEF", "VES", "2018-08-20", "100000", "Banco Central de Venezuela, reconversión monetaria 2018",
      expires: "2021-10-01",
      note: "VES itself was redenominated 1000000:1 on 2021-10-01 and rate sources quote the new bolívar as VES"),
    CurrencyChange(.redenomination, "SLL", "SLE", "2022-07-01", "1000", "Sierra Leone Currency Redenomination Act 2021"),
    CurrencyChange(.redenomination, "ANG", "XCG", "2025-03-31", "1", "Centrale Bank van Curaçao en Sint Maarten, 2025"),

    // The Reserve Bank of Zimbabwe converted ZWL balances into ZWG on 2024-04-05 at a rate derived from that day's
    // interbank rate and the gold price (Monetary Policy Statement of 5 April 2024), not a legal ratio; fxbatch
    // has not verified that rate against the RBZ's text, so it converts no ZWL amount from that day on.
    CurrencyChange(
      .replacement, "ZWL", "ZWG", "2024-04-05", nil, "Reserve Bank of Zimbabwe, Monetary Policy Statement of 5 April 2024",
      note: "the RBZ's conversion rate was set from that day's market, not fixed by law, and fxbatch does not carry it"),
  ]
}
