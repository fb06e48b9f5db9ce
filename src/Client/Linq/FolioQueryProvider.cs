using System.Linq.Expressions;
using Folio.Client.Session;

namespace Folio.Client.Linq;

/// <summary>Builds a session's LINQ queries and runs them (asynchronously only: a synchronous run would block a thread on the network).</summary>
internal sealed class FolioQueryProvider : IQueryProvider
{
    private readonly string _source;

    public FolioQueryProvider(AsyncDocumentSession session, string source)
    {
        Session = session;
        _source = source;
    }

    public AsyncDocumentSession Session { get; }

    public IQueryable CreateQuery(Expression expression)
    {
        Type element = expression.Type.GetInterfaces().FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IQueryable<>))?.GetGenericArguments()[0]
            ?? throw new NotSupportedException($"'{expression}' is not a query.");
        return (IQueryable)Activator.CreateInstance(typeof(FolioQueryable<>).MakeGenericType(element), this, expression)!;
    }

    public IQueryable<TElement> CreateQuery<TElement>(Expression expression) => new FolioQueryable<TElement>(this, expression);

    public object? Execute(Expression expression) => throw SynchronousUse();

    public TResult Execute<TResult>(Expression expression) => throw SynchronousUse();

    public TranslatedQuery Translate(Expression expression, ResultOperator resultOperator) =>
        new QueryTranslator(Session.Serializer, Session.Conventions.IdentityPropertyName, _source).Translate(expression, resultOperator);

    internal static NotSupportedException SynchronousUse() =>
        new("Folio queries run asynchronously: use ToListAsync, CountAsync, FirstOrDefaultAsync, AnyAsync or SingleOrDefaultAsync (from Folio.Client.Linq).");
}
