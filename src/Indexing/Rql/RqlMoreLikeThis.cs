namespace Folio.Indexing.Rql;

/// <summary>
/// The seeds' <c>morelikethis(condition [, options])</c> or <c>morelikethis(document [, options])</c>: entries like a
/// source, the first entry of the index <see cref="Source"/> matches (<c>id() = 'articles/1'</c>), or an artificial
/// document, a JSON object of texts by field (<see cref="Document"/>, a string or a <c>$parameter</c>). The options are
/// a JSON object (a string or a <c>$parameter</c>) of <c>Fields</c>, <c>MinimumTermFrequency</c>, … as the seeds name them.
/// </summary>
public sealed record RqlMoreLikeThis(RqlExpression? Source, RqlValue? Document, RqlValue? Options, int Position) : RqlExpression;
