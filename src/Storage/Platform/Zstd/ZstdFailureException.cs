namespace Folio.Storage.Platform.Zstd;

/// <summary>Zstd refused an input or a dictionary, whichever implementation ran; the message is Zstd's.</summary>
public sealed class ZstdFailureException : Exception
{
    /// <summary>A failure with Zstd's message.</summary>
    public ZstdFailureException(string message)
        : base(message)
    {
    }

    /// <summary>A failure with Zstd's message and the managed implementation's exception.</summary>
    public ZstdFailureException(string message, Exception inner)
        : base(message, inner)
    {
    }
}
