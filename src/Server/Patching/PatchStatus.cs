namespace Folio.Server.Patching;

/// <summary>What a batch's PATCH command did, named as the seeds' clients read it.</summary>
public enum PatchStatus
{
    /// <summary>The command is not a patch.</summary>
    None,

    /// <summary>The document did not exist and was created.</summary>
    Created,

    /// <summary>The document was changed.</summary>
    Patched,

    /// <summary>The script left the document as it was; nothing was written.</summary>
    NotModified,

    /// <summary>The document did not exist and the command had nothing to create it from.</summary>
    DocumentDoesNotExist,
}
