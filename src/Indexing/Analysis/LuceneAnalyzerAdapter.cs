using Lucene.Net.Analysis.TokenAttributes;
using LuceneAnalyzer = Lucene.Net.Analysis.Analyzer;

namespace Folio.Indexing.Analysis;

/// <summary>
/// A Lucene.Net analyzer as a Folio <see cref="Analyzer"/>: its <c>TokenStream</c>'s terms, positions (position
/// increments, so removed stop words leave gaps) and offsets handed to Folio's token sink. Both search engines analyze
/// through Folio analyzers, so a Lucene analyzer named by a field works the same on either engine.
/// </summary>
public sealed class LuceneAnalyzerAdapter : Analyzer
{
    private readonly LuceneAnalyzer _analyzer;

    /// <summary>Adapts <paramref name="analyzer"/> (thread-safe, as Lucene's analyzers are), known as <paramref name="name"/>.</summary>
    public LuceneAnalyzerAdapter(string name, LuceneAnalyzer analyzer)
    {
        Name = name;
        _analyzer = analyzer;
    }

    /// <summary>The name a field definition gives the analyzer.</summary>
    public string Name { get; }

    /// <inheritdoc />
    /// <remarks>Allocates (Lucene's streams read strings); meant for the analyzers users pick per field, not Folio's default chain.</remarks>
    public override void Analyze<TSink>(ReadOnlySpan<char> text, ref TSink sink)
    {
        using var stream = _analyzer.GetTokenStream(string.Empty, new StringReader(text.ToString()));
        var term = stream.AddAttribute<ICharTermAttribute>();
        var increment = stream.AddAttribute<IPositionIncrementAttribute>();
        var offsets = stream.AddAttribute<IOffsetAttribute>();
        stream.Reset();
        var position = -1;
        while (stream.IncrementToken())
        {
            var step = increment.PositionIncrement;
            position = Math.Max(0, position + step);
            sink.OnToken(new Token(term.Buffer.AsSpan(0, term.Length), position, step, offsets.StartOffset, offsets.EndOffset));
        }
        stream.End();
    }
}
