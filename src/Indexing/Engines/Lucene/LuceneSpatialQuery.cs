using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Spatial;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// <see cref="SpatialQuery"/> in Lucene: the spatial field's terms in each covering range of cells, seeking from range to
/// range, each term's point tested against the shape; the terms taken match as any multi-term query's do.
/// </summary>
internal sealed class LuceneSpatialQuery : MultiTermQuery
{
    private readonly SpatialQuery _query;

    public LuceneSpatialQuery(SpatialQuery query)
        : base(query.Field)
    {
        _query = query;
        // Straight to a bit set per segment: the default first collects terms to weigh a boolean query, a second walk.
        MultiTermRewriteMethod = CONSTANT_SCORE_FILTER_REWRITE;
    }

    /// <inheritdoc/>
    protected override TermsEnum GetTermsEnum(Terms terms, AttributeSource atts) =>
        _query.Ranges.Count == 0 ? TermsEnum.EMPTY : new RangesEnum(terms.GetEnumerator(), _query);

    /// <inheritdoc/>
    public override string ToString(string field) => $"spatial({Field}, {_query.Ranges.Count} ranges)";

    /// <inheritdoc/>
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    /// <inheritdoc/>
    public override int GetHashCode() => System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(this);

    private sealed class RangesEnum : FilteredTermsEnum
    {
        private readonly SpatialQuery _query;
        private int _range;
        private BytesRef? _seek;

        public RangesEnum(TermsEnum terms, SpatialQuery query)
            : base(terms, startWithSeek: true)
        {
            _query = query;
            _seek = Start(0);
        }

        protected override BytesRef? NextSeekTerm(BytesRef currentTerm)
        {
            var seek = _seek;
            _seek = null;
            return seek;
        }

        protected override AcceptStatus Accept(BytesRef term)
        {
            var bytes = new ReadOnlySpan<byte>(term.Bytes, term.Offset, term.Length);
            if (!SpatialTerm.TryReadCell(bytes, out var cell))
                return AcceptStatus.NO;
            var ranges = _query.Ranges;
            while (cell > ranges[_range].High)
            {
                if (++_range == ranges.Count)
                    return AcceptStatus.END;
                if (cell < ranges[_range].Low)
                {
                    _seek = Start(_range);
                    return AcceptStatus.NO_AND_SEEK;
                }
            }
            return SpatialTerm.TryDecode(bytes, out _, out var lat, out var lng) && _query.Shape.Contains(lat, lng) ? AcceptStatus.YES : AcceptStatus.NO;
        }

        private BytesRef Start(int range) => new(Encoding.ASCII.GetBytes(SpatialTerm.CellPrefix(_query.Ranges[range].Low)));
    }
}
