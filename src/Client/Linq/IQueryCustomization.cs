namespace Folio.Client.Linq;

/// <summary>Options of one query, set through <c>Customize</c>.</summary>
public interface IQueryCustomization
{
    /// <summary>Makes the server wait until the index has caught up with every write before it answers (up to <paramref name="timeout"/>, 15 s by default).</summary>
    IQueryCustomization WaitForNonStaleResults(TimeSpan? timeout = null);

    /// <summary>Answers entities the session does not track: changes to them are not saved.</summary>
    IQueryCustomization NoTracking();
}
