using BenchmarkDotNet.Attributes;
using Folio.Indexing.Analysis;

namespace Folio.Benchmarks.Analysis;

/// <summary>
/// Throughput of full-text analysis. Each benchmark analyses one ~30-word sentence and reports
/// time per word (OperationsPerInvoke), so tokens/s = 1e9 / Mean(ns). Allocated must stay 0 B:
/// analysis pushes tokens to a struct sink and must not allocate per token.
/// </summary>
[MemoryDiagnoser]
public class AnalyzerBenchmarks
{
    private const int WordsInSentence = 30;

    private const string Sentence =
        "The quick brown foxes were jumping over the lazy dogs' kennels while generously " +
        "connected communities of naïve café owners in Zürich didn't notice 3.14 running " +
        "rivers, nationalised industries and databases";

    private int _checksum;

    /// <summary>Checks that the sentence has the word count the per-token figures assume.</summary>
    [GlobalSetup]
    public void Setup()
    {
        int words = 0;
        int offset = 0;
        while (WordTokenizer.Default.TryNext(Sentence, ref offset, out _, out _))
        {
            words++;
        }

        if (words != WordsInSentence)
        {
            throw new InvalidOperationException($"The benchmark sentence has {words} words, expected {WordsInSentence}.");
        }
    }

    /// <summary>Tokenizer alone, for comparison.</summary>
    [Benchmark(OperationsPerInvoke = WordsInSentence)]
    public int Tokenize()
    {
        int count = 0;
        int offset = 0;
        while (WordTokenizer.Default.TryNext(Sentence, ref offset, out int start, out int end))
        {
            count += end - start;
        }

        return count;
    }

    /// <summary>Tokenize, lower-case and fold.</summary>
    [Benchmark(OperationsPerInvoke = WordsInSentence)]
    public int Simple()
    {
        var sink = new ChecksumSink();
        SimpleAnalyzer.Instance.Analyze(Sentence, ref sink);
        _checksum += sink.Checksum;
        return sink.Checksum;
    }

    /// <summary>The full English chain: tokenize, lower-case, fold, stop words, Porter2.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = WordsInSentence)]
    public int StandardEnglish()
    {
        var sink = new ChecksumSink();
        StandardEnglishAnalyzer.Instance.Analyze(Sentence, ref sink);
        _checksum += sink.Checksum;
        return sink.Checksum;
    }

    private struct ChecksumSink : ITokenSink
    {
        public int Checksum;

        // Touches the term so the analysis cannot be optimised away.
        public void OnToken(scoped Token token) => Checksum += token.Term.Length + token.Position;
    }
}
