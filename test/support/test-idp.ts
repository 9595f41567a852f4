import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A SAML identity provider for tests: its own key and certificate, made in the test. */
export interface TestIdp {
  entityID: string;
  ssoURL: string;
  certificate: string;
  privateKey: string;
}

export async function createTestIdp(name = 'idp.test'): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: name }], { keySize: 2048, algorithm: 'sha256' });
  return { entityID: `https://${name}/entity`, ssoURL: `https://${name}/sso`, certificate: pems.cert, privateKey: pems.private };
}

/** The ID of the AuthnRequest carried by an HTTP-Redirect binding URL. */
export function authnRequestId(redirectUrl: string): { id: string; xml: string } {
  const samlRequest = new URL(redirectUrl).searchParams.get('SAMLRequest');
  if (!samlRequest) throw new Error(`no SAMLRequest in ${redirectUrl}`);
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const id = new DOMParser().parseFromString(xml, 'text/xml').documentElement?.getAttribute('ID');
  if (!id) throw new Error('AuthnRequest without ID');
  return { id, xml };
}

export interface ResponseOptions {
  inResponseTo: string;
  acsURL: string;
  audience: string;
  email: string;
  /** A persistent NameID other than the email (then the email travels as an attribute). Default: the email. */
  nameID?: string;
  displayName?: string;
  assertionId?: string;
  /** Seconds from now; negative makes an expired assertion. */
  validForSeconds?: number;
  issuer?: string;
  sign?: boolean;
  /** Applied to the XML after signing (tampering). */
  afterSigning?: (xml: string) => string;
}

let counter = 0;

/** A SAML Response whose assertion is signed with the IdP's key (RSA-SHA256, exclusive c14n), base64-encoded. */
export function signedResponse(idp: TestIdp, o: ResponseOptions): string {
  counter += 1;
  const now = new Date();
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const until = new Date(now.getTime() + (o.validForSeconds ?? 300) * 1000);
  const notBefore = new Date(Math.min(now.getTime(), until.getTime()) - 120_000);
  const assertionId = o.assertionId ?? `_assertion${counter}${Date.now()}`;
  const issuer = o.issuer ?? idp.entityID;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_response${counter}" Version="2.0" IssueInstant="${iso(now)}" Destination="${o.acsURL}" InResponseTo="${o.inResponseTo}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    (o.nameID
      ? `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${o.nameID}</saml:NameID>`
      : `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>`) +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${iso(until)}" Recipient="${o.acsURL}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(until)}">` +
    `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_session${counter}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${o.displayName ?? 'SSO Person'}</saml:AttributeValue></saml:Attribute>` +
    (o.nameID ? `<saml:Attribute Name="email"><saml:AttributeValue>${o.email}</saml:AttributeValue></saml:Attribute>` : '') +
    `</saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`;
  let out = xml;
  if (o.sign !== false) {
    const sig = new SignedXml({
      privateKey: idp.privateKey,
      publicCert: idp.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    out = sig.getSignedXml();
  }
  if (o.afterSigning) out = o.afterSigning(out);
  return Buffer.from(out, 'utf8').toString('base64');
}
