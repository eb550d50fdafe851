({session, ...shared}) => {
  if (!chrome.extension.inIncognitoContext) return false;
  self.refbrowseSession = session;
  return chrome.storage.session.set(shared).then(() => true);
}
