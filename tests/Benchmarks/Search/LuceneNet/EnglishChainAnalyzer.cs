using Lucene.Net.Analysis;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Analysis.Miscellaneous;
using Lucene.Net.Analysis.Snowball;
using Lucene.Net.Analysis.Standard;
using Lucene.Net.Tartarus.Snowball.Ext;
using Lucene.Net.Util;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>
/// The chain LuceneBench.java's <c>EnglishChain</c> builds, in Lucene.Net: standard tokenizer, lower case, ASCII folding,
/// English stop words, Snowball English; so the in-process column analyses text the way the Java column does.
/// </summary>
internal sealed class EnglishChainAnalyzer : Analyzer
{
    /// <summary>The Lucene.Net version whose behaviour the components follow.</summary>
    public const LuceneVersion Version = LuceneVersion.LUCENE_48;

    protected override TokenStreamComponents CreateComponents(string fieldName, TextReader reader)
    {
        var source = new StandardTokenizer(Version, reader);
        TokenStream stream = new LowerCaseFilter(Version, source);
        stream = new ASCIIFoldingFilter(stream);
        stream = new StopFilter(Version, stream, StopAnalyzer.ENGLISH_STOP_WORDS_SET);
        stream = new SnowballFilter(stream, new EnglishStemmer());
        return new TokenStreamComponents(source, stream);
    }
}
