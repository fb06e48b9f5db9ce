using System.Linq.Expressions;

namespace Folio.Client.Session;

/// <summary>A load that also brings referred documents into the session.</summary>
internal sealed class LoaderWithInclude<T> : ILoaderWithInclude<T>
{
    private readonly AsyncDocumentSession _session;
    private readonly List<string> _includes = [];

    public LoaderWithInclude(AsyncDocumentSession session)
    {
        _session = session;
    }

    public ILoaderWithInclude<T> Include(Expression<Func<T, object?>> path)
    {
        _includes.Add(AsyncDocumentSession.IncludePath(path));
        return this;
    }

    public ILoaderWithInclude<T> Include(string path)
    {
        _includes.Add(path);
        return this;
    }

    public async Task<TResult?> LoadAsync<TResult>(string id, CancellationToken cancellationToken = default) where TResult : class
    {
        Dictionary<string, TResult?> loaded = await _session.LoadManyAsync<TResult>([id], _includes, cancellationToken).ConfigureAwait(false);
        return loaded[id];
    }

    public Task<Dictionary<string, TResult?>> LoadAsync<TResult>(IEnumerable<string> ids, CancellationToken cancellationToken = default) where TResult : class =>
        _session.LoadManyAsync<TResult>(ids, _includes, cancellationToken);
}
