using Lucene.Net.Util;
using LuceneAnalyzer = Lucene.Net.Analysis.Analyzer;

namespace Folio.Indexing.Analysis;

/// <summary>
/// The analyzers a field definition may name (<c>"Analyzer"</c>): Folio's own English chain (<c>Folio</c>, the default
/// of full-text fields), the exact analyzer (<c>Exact</c>), and Lucene.Net's analysis-common analyzers by name
/// (<c>Standard</c>, <c>Simple</c>, <c>Whitespace</c>, <c>Keyword</c>, <c>Stop</c>, <c>Classic</c> and the language analyzers),
/// these through <see cref="LuceneAnalyzerAdapter"/>. Names compare case-insensitively.
/// </summary>
public static class NamedAnalyzers
{
    private const LuceneVersion Version = LuceneVersion.LUCENE_48;

    private static readonly Dictionary<string, Func<LuceneAnalyzer>> LuceneFactories = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Standard"] = () => new Lucene.Net.Analysis.Standard.StandardAnalyzer(Version),
        ["Classic"] = () => new Lucene.Net.Analysis.Standard.ClassicAnalyzer(Version),
        ["Simple"] = () => new Lucene.Net.Analysis.Core.SimpleAnalyzer(Version),
        ["Whitespace"] = () => new Lucene.Net.Analysis.Core.WhitespaceAnalyzer(Version),
        ["Keyword"] = () => new Lucene.Net.Analysis.Core.KeywordAnalyzer(),
        ["Stop"] = () => new Lucene.Net.Analysis.Core.StopAnalyzer(Version),
        ["Arabic"] = () => new Lucene.Net.Analysis.Ar.ArabicAnalyzer(Version),
        ["Armenian"] = () => new Lucene.Net.Analysis.Hy.ArmenianAnalyzer(Version),
        ["Basque"] = () => new Lucene.Net.Analysis.Eu.BasqueAnalyzer(Version),
        ["Brazilian"] = () => new Lucene.Net.Analysis.Br.BrazilianAnalyzer(Version),
        ["Bulgarian"] = () => new Lucene.Net.Analysis.Bg.BulgarianAnalyzer(Version),
        ["Catalan"] = () => new Lucene.Net.Analysis.Ca.CatalanAnalyzer(Version),
        ["CJK"] = () => new Lucene.Net.Analysis.Cjk.CJKAnalyzer(Version),
        ["Czech"] = () => new Lucene.Net.Analysis.Cz.CzechAnalyzer(Version),
        ["Danish"] = () => new Lucene.Net.Analysis.Da.DanishAnalyzer(Version),
        ["Dutch"] = () => new Lucene.Net.Analysis.Nl.DutchAnalyzer(Version),
        ["English"] = () => new Lucene.Net.Analysis.En.EnglishAnalyzer(Version),
        ["Finnish"] = () => new Lucene.Net.Analysis.Fi.FinnishAnalyzer(Version),
        ["French"] = () => new Lucene.Net.Analysis.Fr.FrenchAnalyzer(Version),
        ["Galician"] = () => new Lucene.Net.Analysis.Gl.GalicianAnalyzer(Version),
        ["German"] = () => new Lucene.Net.Analysis.De.GermanAnalyzer(Version),
        ["Greek"] = () => new Lucene.Net.Analysis.El.GreekAnalyzer(Version),
        ["Hindi"] = () => new Lucene.Net.Analysis.Hi.HindiAnalyzer(Version),
        ["Hungarian"] = () => new Lucene.Net.Analysis.Hu.HungarianAnalyzer(Version),
        ["Indonesian"] = () => new Lucene.Net.Analysis.Id.IndonesianAnalyzer(Version),
        ["Irish"] = () => new Lucene.Net.Analysis.Ga.IrishAnalyzer(Version),
        ["Italian"] = () => new Lucene.Net.Analysis.It.ItalianAnalyzer(Version),
        ["Latvian"] = () => new Lucene.Net.Analysis.Lv.LatvianAnalyzer(Version),
        ["Norwegian"] = () => new Lucene.Net.Analysis.No.NorwegianAnalyzer(Version),
        ["Persian"] = () => new Lucene.Net.Analysis.Fa.PersianAnalyzer(Version),
        ["Portuguese"] = () => new Lucene.Net.Analysis.Pt.PortugueseAnalyzer(Version),
        ["Romanian"] = () => new Lucene.Net.Analysis.Ro.RomanianAnalyzer(Version),
        ["Russian"] = () => new Lucene.Net.Analysis.Ru.RussianAnalyzer(Version),
        ["Sorani"] = () => new Lucene.Net.Analysis.Ckb.SoraniAnalyzer(Version),
        ["Spanish"] = () => new Lucene.Net.Analysis.Es.SpanishAnalyzer(Version),
        ["Swedish"] = () => new Lucene.Net.Analysis.Sv.SwedishAnalyzer(Version),
        ["Turkish"] = () => new Lucene.Net.Analysis.Tr.TurkishAnalyzer(Version),
    };

    private static readonly Dictionary<string, Analyzer> Made = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Folio's English chain, the default of full-text fields.</summary>
    public const string Folio = "Folio";

    /// <summary>The exact analyzer (the whole value one term, case-folded unless the field is case-sensitive).</summary>
    public const string Exact = "Exact";

    /// <summary>Every name, canonically spelled: Folio's, then Lucene's in alphabetical order.</summary>
    public static IReadOnlyList<string> Names { get; } = [Folio, Exact, .. LuceneFactories.Keys.Order(StringComparer.Ordinal)];

    /// <summary>The canonical spelling of <paramref name="name"/>; false when no analyzer has it.</summary>
    public static bool TryCanonical(string? name, out string canonical)
    {
        foreach (var known in Names)
        {
            if (string.Equals(known, name, StringComparison.OrdinalIgnoreCase))
            {
                canonical = known;
                return true;
            }
        }
        canonical = string.Empty;
        return false;
    }

    /// <summary>
    /// The analyzer named <paramref name="name"/> for a field (<paramref name="caseSensitive"/> matters to <c>Exact</c>
    /// only); one instance per Lucene analyzer, shared (they are thread-safe).
    /// </summary>
    /// <exception cref="ArgumentException">No analyzer has that name.</exception>
    public static Analyzer Get(string name, bool caseSensitive = false)
    {
        if (!TryCanonical(name, out var canonical))
            throw new ArgumentException(UnknownMessage(name), nameof(name));
        if (canonical == Folio)
            return StandardEnglishAnalyzer.Instance;
        if (canonical == Exact)
            return caseSensitive ? ExactAnalyzer.CaseSensitive : ExactAnalyzer.CaseInsensitive;
        lock (Made)
        {
            if (!Made.TryGetValue(canonical, out var analyzer))
            {
                analyzer = new LuceneAnalyzerAdapter(canonical, LuceneFactories[canonical]());
                Made.Add(canonical, analyzer);
            }
            return analyzer;
        }
    }

    /// <summary>What to tell someone who named an analyzer that does not exist.</summary>
    public static string UnknownMessage(string? name) => $"Unknown analyzer '{name}' (expected one of {string.Join(", ", Names)}).";
}
