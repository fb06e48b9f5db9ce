namespace Folio.Client.Conventions;

/// <summary>How a new entity without an id gets one.</summary>
public enum IdGeneration
{
    /// <summary>The server makes the id when the session saves (<c>orders/</c> becomes <c>orders/17</c>); the entity's id is set after <c>SaveChangesAsync</c>.</summary>
    Server,

    /// <summary>
    /// The client reserves ranges of numbers per collection from a <c>hilo/{collection}</c> document and assigns ids as
    /// entities are stored, without a request per entity; the id is known before saving.
    /// </summary>
    HiLo,
}
