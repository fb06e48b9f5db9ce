using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

internal sealed partial class QueryCompiler
{
    /// <summary>A chain of <c>or</c>s longer than this compiles flat, with its equalities merged into term sets.</summary>
    private const int ShortChainAtMost = 16;

    /// <summary>
    /// An <c>or</c>: a short chain as the parser nested it; a long one (a client's generated <c>a = 1 or a = 2 or …</c>)
    /// as one disjunction whose equalities on one field become one term set, as <c>in</c> compiles. Nested two at a
    /// time, thousands of disjuncts made as many nested unions, and Lucene allocated a scorer's buffers for each of
    /// them in every segment (1.4 GB for 20,000 names).
    /// </summary>
    private Query Disjunction(RqlBinary or)
    {
        var disjuncts = new List<RqlExpression>();
        var pending = new Stack<RqlExpression>();
        pending.Push(or);
        while (pending.Count > 0)
        {
            var next = pending.Pop();
            if (next is RqlBinary { IsAnd: false } nested)
            {
                pending.Push(nested.Right);
                pending.Push(nested.Left);
            }
            else
            {
                disjuncts.Add(next);
            }
        }
        if (disjuncts.Count <= ShortChainAtMost)
            return new OrQuery([CompileExpression(or.Left), CompileExpression(or.Right)]);

        var should = new List<Query>(disjuncts.Count);
        var equalities = new Dictionary<string, List<FieldValue>>(StringComparer.Ordinal);
        foreach (var disjunct in disjuncts)
        {
            var compiled = CompileExpression(disjunct);
            if (compiled is TermQuery term)
            {
                if (!equalities.TryGetValue(term.Field, out var values))
                {
                    equalities.Add(term.Field, values = []);
                    // The set takes the place of the field's first equality; it is filled as the chain goes on.
                    should.Add(new TermsInQuery(term.Field, values));
                }
                values.Add(term.Value);
            }
            else
            {
                should.Add(compiled);
            }
        }
        for (var i = 0; i < should.Count; i++)
        {
            if (should[i] is TermsInQuery { Values.Count: 1 } single)
                should[i] = new TermQuery(single.Field, single.Values[0]);
        }
        return should.Count == 1 ? should[0] : new OrQuery(should);
    }
}
