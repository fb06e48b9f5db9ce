namespace Folio.Server.Databases;

/// <summary>Whether a database may be deleted.</summary>
public enum DatabaseLockMode
{
    /// <summary>It may.</summary>
    Unlock,

    /// <summary>A delete leaves it as it is and reports no error.</summary>
    PreventDeletesIgnore,

    /// <summary>A delete is refused (409), and nothing of it happens.</summary>
    PreventDeletesError,
}
