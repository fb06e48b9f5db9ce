using System.Collections;
using System.Linq.Expressions;

namespace Folio.Client.Linq;

/// <summary>A LINQ query of a session; enumerate it asynchronously (<c>ToListAsync</c>), never synchronously.</summary>
internal sealed class FolioQueryable<T> : IFolioQueryable<T>
{
    public FolioQueryable(FolioQueryProvider provider, Expression? expression = null)
    {
        Provider = provider;
        Expression = expression ?? Expression.Constant(this);
    }

    public Type ElementType => typeof(T);

    public Expression Expression { get; }

    public IQueryProvider Provider { get; }

    public RqlQuery ToRql()
    {
        TranslatedQuery translated = ((FolioQueryProvider)Provider).Translate(Expression, ResultOperator.List);
        var parameters = new Dictionary<string, object?>();
        foreach (KeyValuePair<string, Newtonsoft.Json.Linq.JToken> parameter in translated.Parameters)
            parameters[parameter.Key] = parameter.Value;
        return new RqlQuery(translated.Rql, parameters);
    }

    public IEnumerator<T> GetEnumerator() => throw FolioQueryProvider.SynchronousUse();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public override string ToString() => ToRql().Text;
}
