import SessionCore
print(SessionCoreInfo.name)
